import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatDateTime } from '../../i18n/messages';
import { useApp, useT } from '../../store/StoreContext';
import type { FindingView, RunDetail } from '../../store/reviewSlice';
import { groupByRule, rovingTarget, type FindingGroup } from './findingGroups';

const SEVERITIES = ['blocking', 'major', 'minor', 'info'] as const;
const STATES = ['proposed', 'approved', 'edited', 'rejected', 'written'] as const;

/**
 * One finding. `tabbable`: this card is the list's one tab stop (roving focus), so its buttons are
 * reachable by Tab too; the other cards' buttons are not (arrows move between cards).
 */
function FindingCard({ finding, n, tabbable, rowId }: { finding: FindingView; n: number; tabbable: boolean; rowId: string }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const tab = tabbable ? 0 : -1;
  const selected = useApp((s) => s.selectedFindingId === finding.id);
  const moving = useApp((s) => s.movingFindingId === finding.id);
  const selectFinding = useApp((s) => s.selectFinding);
  const setMoving = useApp((s) => s.setMoving);
  const decide = useApp((s) => s.decide);
  const [editing, setEditing] = useState<string | null>(null);
  const { annotation } = finding;
  const written = annotation.state === 'written';
  const approved = (annotation.state === 'approved' || annotation.state === 'edited') && !written;

  return (
    <li
      className={`finding sev-${finding.severity}${selected ? ' selected' : ''}`}
      data-testid={`finding-${n}`}
      data-state={annotation.state}
      data-item={finding.checklistItemId}
      data-row={rowId}
      tabIndex={tab}
      aria-current={selected ? 'true' : undefined}
      aria-label={t('review.finding.label', { n, message: finding.message })}
      onClick={() => selectFinding(finding.id)}
    >
      <div className="finding-head">
        <span className={`marker-static sev-${finding.severity}`}>{n}</span>
        <span className={`pill sev-${finding.severity}`}>{t(`review.severity.${finding.severity}`)}</span>
        <span className="mono">{finding.checklistItemId}</span>
        {finding.count !== undefined && (
          <span className="pill" data-testid="finding-count" title={t('review.finding.countHint', { n: finding.count })}>
            {t('review.finding.count', { n: finding.count })}
          </span>
        )}
        {finding.source === 'llm' && <span className="pill llm" data-testid="finding-llm">{t('review.finding.llm')}</span>}
        {finding.hypothesis && (
          <span className="pill hypothesis" data-testid="finding-hypothesis" title={t('review.finding.hypothesisHint')}>
            {t('review.finding.hypothesis')}
          </span>
        )}
        <span className={`pill state-${annotation.state}`} data-testid="finding-state">
          {t(`review.state.${annotation.state}`)}
        </span>
      </div>
      <p className="finding-message">{finding.message}</p>
      {editing === null ? (
        <p className="finding-annotation">
          <span className="hint">{t('review.finding.annotation')}</span> {annotation.text}
        </p>
      ) : (
        <div className="finding-edit" onClick={(e) => e.stopPropagation()}>
          <textarea aria-label={t('review.finding.annotation')} value={editing} maxLength={500} onChange={(e) => setEditing(e.target.value)} data-testid="finding-text" />
          <button
            type="button"
            className="btn-primary"
            disabled={editing.trim() === ''}
            onClick={() => {
              void decide(finding.id, { kind: 'edit', text: editing });
              setEditing(null);
            }}
            data-testid="finding-save"
          >
            {t('review.finding.saveText')}
          </button>
          <button type="button" className="btn-ghost" onClick={() => setEditing(null)}>
            {t('review.finding.cancel')}
          </button>
        </div>
      )}
      {selected && finding.evidenceRefs.length > 0 && (
        // What the finding rests on, as the backend names it (tools, entity handles): folded, for whoever wants to check.
        <details className="hint finding-evidence" data-testid="finding-evidence" onClick={(e) => e.stopPropagation()}>
          <summary>{t('review.finding.evidence')}</summary>
          <span className="mono">{finding.evidenceRefs.join(' · ')}</span>
        </details>
      )}
      {written && finding.writtenAt && <p className="hint ok">{t('review.finding.writtenAt', { at: formatDateTime(locale, finding.writtenAt) })}</p>}
      {!written && editing === null && finding.hypothesis && (
        <div className="finding-actions" onClick={(e) => e.stopPropagation()}>
          <button type="button" tabIndex={tab} className="btn-ghost ok" onClick={() => void decide(finding.id, { kind: 'promote' })} data-testid="finding-promote">
            {t('review.finding.promote')}
          </button>
          <button type="button" tabIndex={tab} className="btn-ghost danger" disabled={annotation.state === 'rejected'} onClick={() => void decide(finding.id, { kind: 'reject' })} data-testid="finding-reject">
            {t('review.finding.reject')}
          </button>
        </div>
      )}
      {!written && editing === null && !finding.hypothesis && (
        <div className="finding-actions" onClick={(e) => e.stopPropagation()}>
          <button
            type="button"
            tabIndex={tab}
            className="btn-ghost ok"
            disabled={approved}
            onClick={() => void decide(finding.id, { kind: 'approve', payloadHash: finding.payloadHash })}
            data-testid="finding-approve"
          >
            {approved ? t('review.finding.approved') : t('review.finding.approve')}
          </button>
          <button type="button" tabIndex={tab} className="btn-ghost" onClick={() => setEditing(annotation.text)} data-testid="finding-edit">
            {t('review.finding.editText')}
          </button>
          <button
            type="button"
            tabIndex={tab}
            className={`btn-ghost${moving ? ' active' : ''}`}
            disabled={finding.frameId === null}
            onClick={() => {
              selectFinding(finding.id);
              setMoving(moving ? null : finding.id);
            }}
            data-testid="finding-move"
          >
            {t('review.finding.move')}
          </button>
          <button type="button" tabIndex={tab} className="btn-ghost danger" disabled={annotation.state === 'rejected'} onClick={() => void decide(finding.id, { kind: 'reject' })} data-testid="finding-reject">
            {t('review.finding.reject')}
          </button>
        </div>
      )}
    </li>
  );
}

/** A rule's head in the list: what the rule checks, how many findings, approve or dismiss them all. */
function GroupHead({ group, collapsed, onToggle, tabbable, rowId }: { group: FindingGroup; collapsed: boolean; onToggle(): void; tabbable: boolean; rowId: string }) {
  const t = useT();
  const decideMany = useApp((s) => s.decideMany);
  const [busy, setBusy] = useState(false);
  const tab = tabbable ? 0 : -1;
  const bulk = (kind: 'approve' | 'reject', findings: FindingView[]): void => {
    setBusy(true);
    void decideMany(findings.map((f) => f.id), kind).finally(() => setBusy(false));
  };
  return (
    <div className="finding-group-head" data-testid={`finding-group-${group.ruleId}`} data-count={group.findings.length}>
      <button type="button" className="finding-group-toggle" data-row={rowId} tabIndex={tab} aria-expanded={!collapsed} onClick={onToggle} data-testid="finding-group-toggle">
        <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span>
        <span className="mono">{group.ruleId}</span>
        <span className="finding-group-title" title={group.description}>{group.description}</span>
        <span className="pill" data-testid="finding-group-count">{t('review.group.count', { count: group.findings.length })}</span>
      </button>
      <div className="finding-group-actions">
        <button type="button" tabIndex={tab} className="btn-ghost ok btn-small" disabled={busy || group.approvable.length === 0} onClick={() => bulk('approve', group.approvable)} data-testid="group-approve">
          {t('review.group.approveAll', { count: group.approvable.length })}
        </button>
        <button type="button" tabIndex={tab} className="btn-ghost danger btn-small" disabled={busy || group.dismissable.length === 0} onClick={() => bulk('reject', group.dismissable)} data-testid="group-dismiss">
          {t('review.group.dismissAll', { count: group.dismissable.length })}
        </button>
      </div>
    </div>
  );
}

type Row = { id: string; findingId: string | null; ruleId: string };
/** The element of a row (rule ids come from checklists: quoted, not trusted as CSS). */
const rowSelector = (id: string): string => `[data-row="${id.replace(/["\\]/g, '\\$&')}"]`;

/**
 * Findings grouped by rule, with filters (severity, status, rule); numbers match the markers.
 * The list is one tab stop (roving focus): ↑/↓, Home and End move between rule heads and cards,
 * Enter or Space selects the focused finding (the drawing centres on it) or folds a rule.
 */
export function FindingsPanel({ run, numbers, frameId }: { run: RunDetail; numbers: Map<string, number>; frameId: string | null }) {
  const t = useT();
  const filters = useApp((s) => s.filters);
  const setFilter = useApp((s) => s.setFilter);
  const selectedId = useApp((s) => s.selectedFindingId);
  const selectFinding = useApp((s) => s.selectFinding);
  const [onlyFrame, setOnlyFrame] = useState(false);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [activeRow, setActiveRow] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const describe = new Map(run.checklistItems.map((i) => [i.id, i.description]));
  const items = [...new Set(run.findings.map((f) => f.checklistItemId))].sort();
  const shown = run.findings.filter(
    (f) =>
      (filters.severity === 'all' || f.severity === filters.severity) &&
      (filters.status === 'all' || f.annotation.state === filters.status) &&
      (filters.item === 'all' || f.checklistItemId === filters.item) &&
      (!onlyFrame || f.frameId === frameId),
  );
  const groups = groupByRule(shown, run.checklistItems);
  const rows: Row[] = groups.flatMap((g) => [
    { id: `rule:${g.ruleId}`, findingId: null, ruleId: g.ruleId },
    ...(collapsed.has(g.ruleId) ? [] : g.findings.map((f) => ({ id: `finding:${f.id}`, findingId: f.id, ruleId: g.ruleId }))),
  ]);
  const selectedRow = selectedId ? `finding:${selectedId}` : null;
  const active = rows.find((r) => r.id === activeRow)?.id ?? rows.find((r) => r.id === selectedRow)?.id ?? rows[0]?.id ?? null;

  // A finding selected elsewhere (a marker on the drawing) becomes the list's tab stop and scrolls
  // into view, inside the list only (scrollIntoView would scroll the page and the drawing too).
  useEffect(() => {
    setActiveRow(null);
    const container = list.current;
    const card = selectedId ? container?.querySelector(rowSelector(`finding:${selectedId}`)) : null;
    if (!container || !card) return;
    const outer = container.getBoundingClientRect();
    const inner = card.getBoundingClientRect();
    if (inner.top < outer.top) container.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) container.scrollTop += Math.min(inner.bottom - outer.bottom, inner.top - outer.top);
  }, [selectedId]);

  const toggle = (ruleId: string): void =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(ruleId)) next.add(ruleId);
      return next;
    });
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>): void => {
    const target = event.target as HTMLElement;
    const rowId = target.getAttribute('data-row');
    if (rowId === null) return;
    const index = rows.findIndex((r) => r.id === rowId);
    const next = rovingTarget(event.key, index, rows.length);
    if (next !== null) {
      event.preventDefault();
      const id = rows[next]!.id;
      setActiveRow(id);
      list.current?.querySelector<HTMLElement>(rowSelector(id))?.focus();
      return;
    }
    const row = rows[index];
    if (row?.findingId && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      selectFinding(row.findingId);
    }
  };

  return (
    <div className="findings-panel" data-testid="findings-panel">
      <div className="findings-filters">
        <select value={filters.severity} onChange={(e) => setFilter('severity', e.target.value)} data-testid="filter-severity" aria-label={t('review.filter.severity')}>
          <option value="all">{t('review.filter.allSeverities')}</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {t(`review.severity.${s}`)}
            </option>
          ))}
        </select>
        <select value={filters.status} onChange={(e) => setFilter('status', e.target.value)} data-testid="filter-status" aria-label={t('review.filter.status')}>
          <option value="all">{t('review.filter.allStates')}</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(`review.state.${s}`)}
            </option>
          ))}
        </select>
        <select value={filters.item} onChange={(e) => setFilter('item', e.target.value)} data-testid="filter-item" aria-label={t('review.filter.item')}>
          <option value="all">{t('review.filter.allItems')}</option>
          {items.map((id) => (
            <option key={id} value={id} title={describe.get(id)}>
              {id}
            </option>
          ))}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={onlyFrame} onChange={(e) => setOnlyFrame(e.target.checked)} /> {t('review.filter.thisFrame')}
        </label>
      </div>
      <p className="hint">
        {t('review.findings.count', { shown: shown.length, total: run.findings.length })} · {t('review.group.rules', { count: groups.length })}
      </p>
      <p className="visually-hidden" id="finding-keys">
        {t('review.findings.keys')}
      </p>
      <ul className="finding-groups" ref={list} onKeyDown={onKeyDown} aria-label={t('review.findings.label')} aria-describedby="finding-keys" data-testid="finding-groups">
        {groups.map((group) => (
          <li key={group.ruleId} className="finding-group">
            <GroupHead group={group} collapsed={collapsed.has(group.ruleId)} onToggle={() => toggle(group.ruleId)} tabbable={active === `rule:${group.ruleId}`} rowId={`rule:${group.ruleId}`} />
            {!collapsed.has(group.ruleId) && (
              <ul className="finding-list">
                {group.findings.map((finding) => (
                  <FindingCard key={finding.id} finding={finding} n={numbers.get(finding.id) ?? 0} tabbable={active === `finding:${finding.id}`} rowId={`finding:${finding.id}`} />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

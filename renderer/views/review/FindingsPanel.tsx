import { useState } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { FindingView, RunDetail } from '../../store/reviewSlice';

const SEVERITIES = ['blocking', 'major', 'minor', 'info'] as const;
const STATES = ['proposed', 'approved', 'edited', 'rejected', 'written'] as const;

function FindingCard({ finding, n }: { finding: FindingView; n: number }) {
  const t = useT();
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
          <textarea value={editing} maxLength={500} onChange={(e) => setEditing(e.target.value)} data-testid="finding-text" />
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
        <p className="hint finding-evidence" data-testid="finding-evidence">
          {t('review.finding.evidence')} <span className="mono">{finding.evidenceRefs.join(' · ')}</span>
        </p>
      )}
      {written && finding.writtenAt && <p className="hint ok">{t('review.finding.writtenAt', { at: new Date(finding.writtenAt).toLocaleString() })}</p>}
      {!written && editing === null && finding.hypothesis && (
        <div className="finding-actions" onClick={(e) => e.stopPropagation()}>
          <button type="button" className="btn-ghost ok" onClick={() => void decide(finding.id, { kind: 'promote' })} data-testid="finding-promote">
            {t('review.finding.promote')}
          </button>
          <button type="button" className="btn-ghost danger" disabled={annotation.state === 'rejected'} onClick={() => void decide(finding.id, { kind: 'reject' })} data-testid="finding-reject">
            {t('review.finding.reject')}
          </button>
        </div>
      )}
      {!written && editing === null && !finding.hypothesis && (
        <div className="finding-actions" onClick={(e) => e.stopPropagation()}>
          <button
            type="button"
            className="btn-ghost ok"
            disabled={approved}
            onClick={() => void decide(finding.id, { kind: 'approve', payloadHash: finding.payloadHash })}
            data-testid="finding-approve"
          >
            {approved ? t('review.finding.approved') : t('review.finding.approve')}
          </button>
          <button type="button" className="btn-ghost" onClick={() => setEditing(annotation.text)} data-testid="finding-edit">
            {t('review.finding.editText')}
          </button>
          <button
            type="button"
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
          <button type="button" className="btn-ghost danger" disabled={annotation.state === 'rejected'} onClick={() => void decide(finding.id, { kind: 'reject' })} data-testid="finding-reject">
            {t('review.finding.reject')}
          </button>
        </div>
      )}
    </li>
  );
}

/** Findings with filters (severity, status, checklist item); numbers match the markers. */
export function FindingsPanel({ run, numbers, frameId }: { run: RunDetail; numbers: Map<string, number>; frameId: string | null }) {
  const t = useT();
  const filters = useApp((s) => s.filters);
  const setFilter = useApp((s) => s.setFilter);
  const [onlyFrame, setOnlyFrame] = useState(false);
  const items = [...new Set(run.findings.map((f) => f.checklistItemId))].sort();
  const shown = run.findings.filter(
    (f) =>
      (filters.severity === 'all' || f.severity === filters.severity) &&
      (filters.status === 'all' || f.annotation.state === filters.status) &&
      (filters.item === 'all' || f.checklistItemId === filters.item) &&
      (!onlyFrame || f.frameId === frameId),
  );
  const describe = new Map(run.checklistItems.map((i) => [i.id, i.description]));
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
      <p className="hint">{t('review.findings.count', { shown: shown.length, total: run.findings.length })}</p>
      <ul className="finding-list">
        {shown.map((finding) => (
          <FindingCard key={finding.id} finding={finding} n={numbers.get(finding.id) ?? 0} />
        ))}
      </ul>
    </div>
  );
}

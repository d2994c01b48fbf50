import { useState } from 'react';
import type { SystemCheckItem } from '../../../shared/ipc/contracts/platform';
import { formatTime, type MessageKey } from '../../i18n/messages';
import { useApp, useT } from '../../store/StoreContext';
import { nameWithId } from './envOverrideLabels';

/** Checks with a catalog label; a check added later shows the host's English label. */
const KNOWN = new Set(['node', 'electron', 'kernel', 'ffmpeg', 'fonts', 'data', 'cad', 'provider:none', 'provider:environment']);

/** Row label in the UI language, by check id; a provider by its name and id, so two "Custom" ones differ. */
function itemLabel(t: ReturnType<typeof useT>, item: SystemCheckItem): string {
  const [kind, name] = item.id.split(':');
  if (item.provider) {
    return t('systemCheck.item.provider', { name: nameWithId(item.provider.name, item.provider.id) });
  }
  if (kind === 'provider' && name && !KNOWN.has(item.id)) return t('systemCheck.item.provider', { name });
  return KNOWN.has(item.id) ? t(`systemCheck.item.${item.id}` as MessageKey) : item.label;
}

/** What a provider row found, in the user's words (the CLI's English detail is for other rows). */
function providerDetail(t: ReturnType<typeof useT>, item: SystemCheckItem & { provider: NonNullable<SystemCheckItem['provider']> }): string {
  const model = item.provider.model ?? '';
  if (!item.problem) return t(item.status === 'pass' ? 'systemCheck.provider.answered' : 'systemCheck.provider.limited', { model });
  const { code, status, host } = item.problem;
  return t(`systemCheck.problem.${code}`, { model, status: status ?? '', host: host ?? '' });
}

/** What a row found, in the user's words: provider rows by their problem, others by their finding; the host's English detail only for a check added without a finding. */
function rowDetail(t: ReturnType<typeof useT>, item: SystemCheckItem): string {
  if (item.provider) return providerDetail(t, { ...item, provider: item.provider });
  if (item.finding) return t(`systemCheck.finding.${item.finding.code}`, item.finding.params);
  return item.detail;
}

/** Settings → System check: the rows of `cadsight doctor`, run on demand. */
export function SystemCheckPanel({ onEditProvider }: { onEditProvider?: (providerId: string) => void }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const state = useApp((s) => s.systemCheck);
  const run = useApp((s) => s.runSystemCheck);
  const [liveModels, setLiveModels] = useState(false);
  const running = state?.status === 'running';
  return (
    <section className="system-check" data-testid="system-check" aria-busy={running}>
      <h2>{t('systemCheck.title')}</h2>
      <p className="hint">{t('systemCheck.intro')}</p>
      <div className="form-actions">
        <label className="checkbox">
          <input type="checkbox" checked={liveModels} onChange={(e) => setLiveModels(e.target.checked)} data-testid="system-check-live" />
          {t('systemCheck.liveModels')}
        </label>
        <button type="button" className="btn-primary" disabled={running} onClick={() => void run(liveModels)} data-testid="system-check-run">
          {running ? t('systemCheck.running') : t('systemCheck.run')}
        </button>
      </div>
      <div aria-live="polite">
        {state?.status === 'failed' && (
          <p className="pill bad" data-testid="system-check-error">
            {state.error.code}: {state.error.message}
          </p>
        )}
        {state?.status === 'done' && (
          <>
            <p className={`pill ${state.report.ok ? 'ok' : 'bad'}`} data-testid="system-check-summary">
              {state.report.ok ? t('systemCheck.ok') : t('systemCheck.failed', { count: state.report.items.filter((i) => i.status === 'fail').length })}{' '}
              {t('systemCheck.checkedAt', { time: formatTime(locale, state.report.checkedAt) })}
            </p>
            <table className="system-check-table">
              <thead>
                <tr>
                  <th>{t('systemCheck.column.check')}</th>
                  <th>{t('systemCheck.column.result')}</th>
                  <th>{t('systemCheck.column.detail')}</th>
                </tr>
              </thead>
              <tbody>
                {state.report.items.map((item) => (
                  <tr key={item.id} data-testid={`system-check-${item.id}`} className={`status-${item.status}`}>
                    <td>{itemLabel(t, item)}</td>
                    <td>
                      <span className={`pill ${item.status === 'pass' ? 'ok' : item.status === 'fail' ? 'bad' : 'muted'}`}>{t(`systemCheck.status.${item.status}`)}</span>
                    </td>
                    <td className="detail">
                      {rowDetail(t, item)} <span className="muted">{t('systemCheck.duration', { ms: item.durationMs })}</span>
                      {item.provider && item.problem?.action === 'edit-provider' && onEditProvider && (
                        <button type="button" className="btn-ghost" data-testid={`system-check-edit-${item.provider.id}`} onClick={() => onEditProvider(item.provider!.id)}>
                          {t('systemCheck.action.editProvider')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </section>
  );
}

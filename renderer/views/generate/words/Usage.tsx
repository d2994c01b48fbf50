import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { formatDateTime, formatTime } from '../../../i18n/messages';
import { useApp, useT } from '../../../store/StoreContext';

/** Calls, prompt tokens (and the share served from the provider's cache), completion tokens, context bytes and latency per role, and the task's elapsed time. */
export function Usage({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  const n = (v: number): string => v.toLocaleString(locale);
  // The engine's own accounted time (model calls, builds); waiting for a retry or an answer is not in it.
  const wallMs = detail.task.usage.wallMs ?? 0;
  return (
    <section className="card" data-testid="gen-usage">
      <div className="cdsl-card-head">
        <h2>{t('gen.usage.title')}</h2>
        <span className="muted">{t('gen.usage.elapsed', { seconds: (wallMs / 1000).toFixed(1), started: formatDateTime(locale, detail.task.createdAt), updated: formatTime(locale, detail.task.updatedAt) })}</span>
      </div>
      <table className="cdsl-table">
        <thead>
          <tr>
            <th>{t('gen.usage.role')}</th>
            <th>{t('gen.usage.calls')}</th>
            <th>{t('gen.usage.prompt')}</th>
            <th>{t('gen.usage.cached')}</th>
            <th>{t('gen.usage.completion')}</th>
            <th>{t('gen.usage.bytes')}</th>
            <th>{t('gen.usage.latency')}</th>
          </tr>
        </thead>
        <tbody>
          {(['author', 'reviewer'] as const).map((role) => {
            const u = detail.usageByRole[role];
            return (
              <tr key={role} data-testid={`gen-usage-${role}`}>
                <td>{t(`gen.form.${role}`)}</td>
                <td>{n(u.calls)}</td>
                <td>{n(u.promptTokens)}</td>
                <td data-testid={`gen-usage-${role}-cached`}>
                  {u.promptTokens > 0 ? t('gen.usage.cachedShare', { tokens: n(u.cachedPromptTokens), percent: n(Math.round((100 * u.cachedPromptTokens) / u.promptTokens)) }) : n(u.cachedPromptTokens)}
                </td>
                <td>{n(u.completionTokens)}</td>
                <td>{t('gen.usage.kb', { kb: n(Math.round(u.contextBytes / 1024)) })}</td>
                <td>{t('gen.usage.ms', { ms: n(u.latencyMs) })}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="hint">{t('gen.usage.hint')}</p>
    </section>
  );
}

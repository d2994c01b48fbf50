import type { AppErrorData } from '../../../shared/errors';
import { en, type MessageKey } from '../../i18n/messages';
import { useApp, useT } from '../../store/StoreContext';

/** Codes whose fix is in Settings: the notice links there. */
const SETTINGS_CODES = new Set(['LLM_NOT_CONFIGURED', 'SETTINGS_NOT_FOUND', 'LLM_AUTH']);

/** The catalog text of an error: the view's own key, else the per-code text, else the host's message. */
export function visionErrorText(t: ReturnType<typeof useT>, error: AppErrorData): string {
  const own = error.data?.['messageKey'];
  if (typeof own === 'string' && own in en) return t(own as MessageKey, (error.data?.['params'] ?? {}) as Record<string, string | number>);
  const byCode = `vision.error.${error.code}`;
  return byCode in en ? t(byCode as MessageKey) : error.message;
}

/** The last action's typed error, inline above the composer, with the code and a fix when there is one. */
export function VisionErrorNotice() {
  const t = useT();
  const error = useApp((s) => s.visionError);
  const dismiss = useApp((s) => s.showVisionError);
  const navigate = useApp((s) => s.navigate);
  const canRetry = useApp((s) => s.visionCanRetry);
  const retry = useApp((s) => s.retryVision);
  const busy = useApp((s) => s.visionBusy);
  if (!error) return null;
  const text = visionErrorText(t, error);
  return (
    <div className="vision-error" role="alert" data-testid="vision-error" data-code={error.code}>
      <div className="vision-error-text">
        <strong>{text}</strong>
        {text !== error.message && error.data?.['messageKey'] === undefined && <span className="vision-error-detail">{error.message}</span>}
        <span className="banner-code">{t('vision.error.code', { code: error.code })}</span>
      </div>
      <div className="vision-error-actions">
        {SETTINGS_CODES.has(error.code) && (
          <button type="button" className="btn-primary" data-testid="vision-open-settings" onClick={() => navigate('settings')}>
            {t('vision.error.openSettings')}
          </button>
        )}
        {canRetry && (
          <button type="button" className="btn-primary" data-testid="vision-retry" disabled={!!busy} onClick={() => void retry()}>
            {t('vision.error.retry')}
          </button>
        )}
        <button type="button" className="btn-ghost" onClick={() => dismiss(null)}>
          {t('vision.error.dismiss')}
        </button>
      </div>
    </div>
  );
}

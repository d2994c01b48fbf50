import type { AppErrorData } from '../../shared/errors';
import { useApp, useT } from '../store/StoreContext';
import type { MessageKey } from '../i18n/messages';
import { en } from '../i18n/messages';
import type { BannerEntry } from '../store/types';

/** Parameters of a banner message: the error's message, plus STORAGE_FULL's folder and size ({folder}, {needed}). */
function bannerParams(error: AppErrorData): Record<string, string> {
  const params: Record<string, string> = { message: error.message };
  const folder = error.data?.['folder'];
  const needed = error.data?.['neededBytes'];
  if (typeof folder === 'string') params['folder'] = folder;
  if (typeof needed === 'number') params['needed'] = needed >= 1048576 ? `${(needed / 1048576).toFixed(1)} MB` : `${Math.ceil(needed / 1024)} KB`;
  return params;
}

const isKey = (key: string): key is MessageKey => key in en;

/**
 * Typed errors of the view on screen (and app-wide notices), newest last. Each says in the user's
 * language what failed (the action, then the catalog's text for the code, or a plain "could not be
 * done" when the code has none); the host's own wording stays behind "Details"; the code is always
 * shown so users can report it. Entries of other views wait there until dismissed.
 */
export function ErrorBanner() {
  const view = useApp((s) => s.view);
  const all = useApp((s) => s.banner);
  const dismiss = useApp((s) => s.dismiss);
  const t = useT();
  const banner = all.filter((entry) => entry.view === null || entry.view === view);
  if (banner.length === 0) return null;
  const describe = (entry: BannerEntry): { text: string; detail: boolean } => {
    const key = `error.${entry.error.code}`;
    // A catalog text whose parameters the error did not carry would show "{folder}": say "could not be done" and keep the host's words under Details.
    const localized = isKey(key) ? t(key, bannerParams(entry.error)) : null;
    if (localized !== null && !/\{\w+\}/.test(localized)) return { text: localized, detail: !en[key as MessageKey].includes('{message}') };
    return { text: t(entry.error.retryable ? 'banner.unknown.retry' : 'banner.unknown'), detail: true };
  };
  return (
    <div className="banner-stack" role="alert" aria-live="assertive">
      {banner.map((entry) => {
        const { text, detail } = describe(entry);
        const action = entry.action !== null && isKey(entry.action) ? t(entry.action) : null;
        return (
          <div key={entry.id} className={`banner banner-${entry.level}`} data-testid="error-banner" data-code={entry.error.code} data-view={entry.view ?? 'app'}>
            <div className="banner-text">
              <strong>
                {action && <span data-testid="error-banner-action">{t('banner.failedAction', { action })} </span>}
                {text}
              </strong>
              {detail && entry.error.message && (
                <details className="banner-details">
                  <summary>{t('banner.details')}</summary>
                  <span>{entry.error.message}</span>
                </details>
              )}
              <span className="banner-code">{t('banner.code', { code: entry.error.code })}</span>
            </div>
            <button type="button" className="btn-ghost" onClick={() => dismiss(entry.id)} data-testid="error-banner-dismiss">
              {t('banner.dismiss')}
            </button>
          </div>
        );
      })}
    </div>
  );
}

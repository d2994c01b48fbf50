import type { AppErrorData } from '../../shared/errors';
import { useApp, useT } from '../store/StoreContext';
import type { MessageKey } from '../i18n/messages';
import { en } from '../i18n/messages';

/** Parameters of a banner message: the error's message, plus STORAGE_FULL's folder and size ({folder}, {needed}). */
function bannerParams(error: AppErrorData): Record<string, string> {
  const params: Record<string, string> = { message: error.message };
  const folder = error.data?.['folder'];
  const needed = error.data?.['neededBytes'];
  if (typeof folder === 'string') params['folder'] = folder;
  if (typeof needed === 'number') params['needed'] = needed >= 1048576 ? `${(needed / 1048576).toFixed(1)} MB` : `${Math.ceil(needed / 1024)} KB`;
  return params;
}

/** Typed errors from any slice, newest last; the code is always shown so users can report it. */
export function ErrorBanner() {
  const banner = useApp((s) => s.banner);
  const dismiss = useApp((s) => s.dismiss);
  const t = useT();
  if (banner.length === 0) return null;
  return (
    <div className="banner-stack" role="alert" aria-live="assertive">
      {banner.map((entry) => {
        const key = `error.${entry.error.code}` as MessageKey;
        const localized = key in en ? t(key, bannerParams(entry.error)) : null;
        // A catalog text whose parameters the error did not carry would show "{folder}": the host's own message says it better.
        const text = localized !== null && !/\{\w+\}/.test(localized) ? localized : entry.error.message;
        return (
          <div key={entry.id} className={`banner banner-${entry.level}`} data-testid="error-banner" data-code={entry.error.code}>
            <div className="banner-text">
              <strong>{text}</strong>
              <span className="banner-code">{t('banner.code', { code: entry.error.code })}</span>
            </div>
            <button type="button" className="btn-ghost" onClick={() => dismiss(entry.id)}>
              {t('banner.dismiss')}
            </button>
          </div>
        );
      })}
    </div>
  );
}

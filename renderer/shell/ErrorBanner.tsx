import { useApp, useT } from '../store/StoreContext';
import type { MessageKey } from '../i18n/messages';
import { en } from '../i18n/messages';

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
        const text = key in en ? t(key, { message: entry.error.message }) : entry.error.message;
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

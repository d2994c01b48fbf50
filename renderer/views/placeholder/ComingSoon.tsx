import { useT } from '../../store/StoreContext';
import type { MessageKey } from '../../i18n/messages';

/** A clear "not here yet" panel for an area whose slice has not landed. */
export function ComingSoon({ area, body }: { area: MessageKey; body: MessageKey }) {
  const t = useT();
  return (
    <section className="panel coming-soon" data-testid="coming-soon">
      <h1>{t('comingSoon.title', { area: t(area) })}</h1>
      <p>{t(body)}</p>
    </section>
  );
}

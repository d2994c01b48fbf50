import { useEffect, useState } from 'react';
import type { CadgenBuildArtifacts } from '../../../shared/ipc/contracts/cadgen';
import { useApp, useT } from '../../store/StoreContext';

/** The hidden-line-removed projections (front/top/right/iso) as SVG images. */
export function DrawingViews({ views }: { views: CadgenBuildArtifacts['views'] }) {
  const t = useT();
  const fetchArtifact = useApp((s) => s.fetchCadgenArtifact);
  const [urls, setUrls] = useState<Record<string, string>>({});

  useEffect(() => {
    let cancelled = false;
    const created: string[] = [];
    void (async () => {
      for (const view of views) {
        const bytes = await fetchArtifact(view.svg, 'svg');
        if (cancelled || !bytes) continue;
        // A blob: URL in <img> renders the SVG without running anything in it (CSP allows blob: images).
        const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'image/svg+xml' }));
        created.push(url);
        setUrls((current) => ({ ...current, [view.view]: url }));
      }
    })();
    return () => {
      cancelled = true;
      for (const url of created) URL.revokeObjectURL(url);
      setUrls({});
    };
  }, [views, fetchArtifact]);

  return (
    <section className="card" data-testid="cdsl-drawings">
      <h2>{t('cadgen.drawings.title')}</h2>
      <div className="cdsl-drawings">
        {views.map((view) => (
          <figure key={view.view} className="cdsl-drawing">
            {urls[view.view] ? <img src={urls[view.view]} alt={t(`cadgen.view.${view.view}`)} data-testid={`cdsl-drawing-${view.view}`} /> : <div className="cdsl-drawing-empty" />}
            <figcaption>{t(`cadgen.view.${view.view}`)}</figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

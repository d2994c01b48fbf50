import { useEffect, useRef, useState } from 'react';
import type { CadgenBuildArtifacts } from '../../../shared/ipc/contracts/cadgen';
import { useT } from '../../store/StoreContext';
import { Modal } from '../review/Modal';
import { PanZoom } from '../review/PanZoom';

export type ViewName = CadgenBuildArtifacts['views'][number]['view'];

/**
 * Sheet position (column, row) of each view: first angle puts the top view below the front view and
 * the left view to its right; third angle puts the top view above and the right view to the right.
 */
const LAYOUT: Record<CadgenBuildArtifacts['projectionMethod'], Partial<Record<ViewName, { gridColumn: number; gridRow: number }>>> = {
  first_angle: { front: { gridColumn: 1, gridRow: 1 }, left: { gridColumn: 2, gridRow: 1 }, top: { gridColumn: 1, gridRow: 2 }, iso: { gridColumn: 2, gridRow: 2 } },
  third_angle: { top: { gridColumn: 1, gridRow: 1 }, iso: { gridColumn: 2, gridRow: 1 }, front: { gridColumn: 1, gridRow: 2 }, right: { gridColumn: 2, gridRow: 2 } },
};

/** Width the enlarged drawing is laid out at; its height follows the SVG's viewBox. */
const ENLARGED_WIDTH_PX = 1600;

interface LoadedView {
  url: string;
  /** viewBox height / width. */
  aspect: number;
}

function aspectOf(svg: Uint8Array): number {
  const match = /viewBox="([^"]+)"/.exec(new TextDecoder().decode(svg.subarray(0, 400)));
  const [, , w, h] = (match?.[1] ?? '0 0 1 1').split(/\s+/).map(Number) as [number, number, number, number];
  return w > 0 && h > 0 ? h / w : 1;
}

/**
 * The hidden-line views arranged as the projection method prescribes; a click enlarges one with
 * zoom and pan. `load` fetches a view's SVG bytes (null = already reported); the views are fetched
 * again when `loadKey` changes.
 */
export function DrawingViews({ views, method, loadKey, load }: { views: readonly ViewName[]; method: CadgenBuildArtifacts['projectionMethod']; loadKey: string; load: (view: ViewName) => Promise<Uint8Array | null> }) {
  const t = useT();
  const loadRef = useRef(load);
  loadRef.current = load;
  const [loaded, setLoaded] = useState<Partial<Record<ViewName, LoadedView>>>({});
  const [enlarged, setEnlarged] = useState<ViewName | null>(null);

  useEffect(() => {
    let cancelled = false;
    const created: string[] = [];
    void (async () => {
      for (const view of views) {
        const bytes = await loadRef.current(view);
        if (cancelled || !bytes) continue;
        // A blob: URL in <img> renders the SVG without running anything in it (CSP allows blob: images).
        const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'image/svg+xml' }));
        created.push(url);
        setLoaded((current) => ({ ...current, [view]: { url, aspect: aspectOf(bytes) } }));
      }
    })();
    return () => {
      cancelled = true;
      for (const url of created) URL.revokeObjectURL(url);
      setLoaded({});
    };
  }, [loadKey]);

  const big = enlarged ? loaded[enlarged] : undefined;
  return (
    <section className="card" data-testid="cdsl-drawings" data-method={method}>
      <div className="cdsl-card-head">
        <h2>{t('cadgen.drawings.title')}</h2>
        <span className="muted" data-testid="cdsl-drawings-method">
          {t(`cadgen.drawings.method.${method}`)}
        </span>
      </div>
      <div className="cdsl-drawings">
        {views.map((view) => {
          const image = loaded[view];
          return (
            <figure key={view} className="cdsl-drawing" style={LAYOUT[method][view]}>
              {image ? (
                <button type="button" className="cdsl-drawing-open" onClick={() => setEnlarged(view)} title={t('cadgen.drawings.enlarge')} data-testid={`cdsl-drawing-open-${view}`}>
                  <img src={image.url} alt={t(`cadgen.view.${view}`)} data-testid={`cdsl-drawing-${view}`} />
                </button>
              ) : (
                <div className="cdsl-drawing-empty" />
              )}
              <figcaption>{t(`cadgen.view.${view}`)}</figcaption>
            </figure>
          );
        })}
      </div>
      {enlarged && big && (
        <Modal title={t(`cadgen.view.${enlarged}`)} onClose={() => setEnlarged(null)} wide testId="cdsl-drawing-modal">
          <PanZoom src={big.url} widthPx={ENLARGED_WIDTH_PX} heightPx={Math.round(ENLARGED_WIDTH_PX * big.aspect)} alt={t(`cadgen.view.${enlarged}`)} className="cdsl-drawing-zoom" testId="cdsl-drawing-zoom" />
        </Modal>
      )}
    </section>
  );
}

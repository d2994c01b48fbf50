import { useRef, useState, type MouseEvent as ReactMouseEvent, type ReactNode, type WheelEvent } from 'react';
import { useT } from '../../store/StoreContext';

/** A click on the picture, in the picture's own pixels (before any zoom). */
export interface PicturePoint {
  x: number;
  y: number;
}

interface PanZoomProps {
  /** Data URL of the picture. */
  src: string;
  widthPx: number;
  heightPx: number;
  alt: string;
  /** Overlays positioned in percent of the picture (markers); they zoom and pan with it. */
  children?: ReactNode;
  /** A click (not a drag) on the picture. */
  onPick?: (point: PicturePoint) => void;
  className?: string;
  testId?: string;
}

const MIN_ZOOM = 1;
const MAX_ZOOM = 12;
/** Movement below this many screen pixels is a click, above it a pan. */
const DRAG_SLOP = 4;

/**
 * A picture that zooms with the wheel (around the cursor) and pans by dragging; overlays move
 * with it. Transforms are React style objects (the CSP forbids inline style strings).
 */
export function PanZoom({ src, widthPx, heightPx, alt, children, onPick, className, testId }: PanZoomProps) {
  const t = useT();
  const [view, setView] = useState({ zoom: 1, x: 0, y: 0 });
  const drag = useRef<{ startX: number; startY: number; x: number; y: number; moved: boolean } | null>(null);
  const frame = useRef<HTMLDivElement>(null);

  const zoomAt = (factor: number, clientX: number, clientY: number): void => {
    const box = frame.current?.getBoundingClientRect();
    if (!box) return;
    setView((v) => {
      const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, v.zoom * factor));
      if (zoom === MIN_ZOOM) return { zoom, x: 0, y: 0 };
      // Keep the point under the cursor where it is.
      const px = clientX - box.left;
      const py = clientY - box.top;
      const k = zoom / v.zoom;
      return { zoom, x: px - (px - v.x) * k, y: py - (py - v.y) * k };
    });
  };

  const onWheel = (event: WheelEvent<HTMLDivElement>): void => {
    zoomAt(event.deltaY < 0 ? 1.25 : 0.8, event.clientX, event.clientY);
  };
  const onMouseDown = (event: ReactMouseEvent<HTMLDivElement>): void => {
    drag.current = { startX: event.clientX, startY: event.clientY, x: view.x, y: view.y, moved: false };
  };
  const onMouseMove = (event: ReactMouseEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.startX;
    const dy = event.clientY - d.startY;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_SLOP) return;
    d.moved = true;
    if (view.zoom > MIN_ZOOM) setView((v) => ({ ...v, x: d.x + dx, y: d.y + dy }));
  };
  const onMouseUp = (event: ReactMouseEvent<HTMLDivElement>): void => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved || !onPick) return;
    const picture = (event.currentTarget.querySelector('img') as HTMLImageElement | null)?.getBoundingClientRect();
    if (!picture || picture.width === 0) return;
    onPick({ x: ((event.clientX - picture.left) / picture.width) * widthPx, y: ((event.clientY - picture.top) / picture.height) * heightPx });
  };

  return (
    <div className={`panzoom ${className ?? ''}`} data-testid={testId}>
      <div
        ref={frame}
        className={`panzoom-frame${onPick ? ' picking' : ''}`}
        onWheel={onWheel}
        onMouseDown={onMouseDown}
        onMouseMove={onMouseMove}
        onMouseUp={onMouseUp}
        onMouseLeave={() => (drag.current = null)}
      >
        <div className="panzoom-layer" style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }}>
          <img src={src} alt={alt} width={widthPx} height={heightPx} draggable={false} />
          {children}
        </div>
      </div>
      <div className="panzoom-tools">
        <button type="button" className="btn-ghost" onClick={() => setView((v) => ({ ...v, zoom: Math.min(MAX_ZOOM, v.zoom * 1.5) }))} aria-label={t('review.zoom.in')}>
          +
        </button>
        <button type="button" className="btn-ghost" onClick={() => setView({ zoom: 1, x: 0, y: 0 })} aria-label={t('review.zoom.reset')}>
          {t('review.zoom.fit')}
        </button>
        <button type="button" className="btn-ghost" onClick={() => setView((v) => (v.zoom / 1.5 <= MIN_ZOOM ? { zoom: 1, x: 0, y: 0 } : { ...v, zoom: v.zoom / 1.5 }))} aria-label={t('review.zoom.out')}>
          −
        </button>
        <span className="hint">{t('review.zoom.hint', { zoom: Math.round(view.zoom * 100) })}</span>
      </div>
    </div>
  );
}

import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { useApp, useT } from '../../../store/StoreContext';
import type { ViewerFocus, ViewTile } from '../../../store/reviewViewerSlice';
import type { AppErrorData } from '../../../../shared/errors';
import { layoutLabel } from './layoutTabs';
import { createTileLoader, type TileLoader } from './tileLoader';
import { boxToScreen, fitCamera, pan, tilesFor, TILE_PX, toDrawing, toScreen, zoomAt, type Box, type Camera, type Point, type Size } from './viewGeometry';

/** Long edge of the whole-layout picture every view starts from (and shows while tiles load). */
const OVERVIEW_EDGE = 1600;
/** Tiles are asked for once the view has been still this long (wheel and drag send many events). */
const TILE_DEBOUNCE_MS = 180;
/** A click meets entities within this many screen pixels. */
const PICK_RADIUS_PX = 5;
/** Movement below this many screen pixels is a click, above it a pan. */
const DRAG_SLOP = 4;
/** Keyboard steps in screen pixels: pan, and arrow-tip placement (Shift = fine). */
const PAN_STEP = 60;
const NUDGE_STEP = 8;
const FALLBACK_SIZE: Size = { width: 800, height: 520 };

type Loaded = ViewTile | { error: AppErrorData };
const isTile = (v: Loaded | undefined): v is ViewTile => v !== undefined && !('error' in v);

/** What overlays get to place themselves on the drawing. */
export interface OverlayContext {
  toScreen(p: Point): Point;
  boxToScreen(b: Box): { left: number; top: number; width: number; height: number };
  size: Size;
  /** The layout on screen (overlays of other layouts are not drawn). */
  layout: string;
}

/** Arrow-tip placement: a click, or the arrow keys then Enter, places the point. */
export interface Placing {
  start: Point;
  label: string;
  onPlace(p: Point): void;
  onCancel(): void;
}

interface DrawingViewerProps {
  /** Tabs: model space and each paper layout. */
  layouts: string[];
  /** The layout and box to show; a new `seq` moves the view there. */
  focus: ViewerFocus | null;
  overlay?: (ctx: OverlayContext) => ReactNode;
  placing?: Placing | null;
  testId?: string;
}

function rect(box: Box, camera: Camera, size: Size) {
  const r = boxToScreen(box, camera, size);
  return { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` };
}

/**
 * The drawing as the backend renders it: a whole-layout picture first, then tiles at the zoom
 * level for the part in view (debounced, two requests at a time, cached), overlays in drawing
 * coordinates, layer toggles from the store, a click lists the entities under it.
 */
export function DrawingViewer({ layouts, focus, overlay, placing = null, testId = 'drawing-viewer' }: DrawingViewerProps) {
  const t = useT();
  const hiddenLayers = useApp((s) => s.hiddenLayers);
  const viewImage = useApp((s) => s.viewImage);
  const pickAt = useApp((s) => s.pickAt);
  const inspected = useApp((s) => s.inspected);
  const [layout, setLayout] = useState(focus?.layout ?? layouts[0] ?? 'Model');
  const [camera, setCamera] = useState<Camera | null>(null);
  const [size, setSize] = useState<Size>(FALLBACK_SIZE);
  const [, setLoadedCount] = useState(0);
  const [pending, setPending] = useState<Point | null>(null);
  // The arrow tip being placed, also as a ref: key presses between renders build on each other.
  const pendingRef = useRef<Point | null>(null);
  const movePending = (p: Point | null): void => {
    pendingRef.current = p;
    setPending(p);
  };
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; camera: Camera; moved: boolean } | null>(null);
  const hiddenKey = hiddenLayers.join('\u0000');
  const prefix = `${layout}|${hiddenKey}|`;
  const requests = useRef(new Map<string, { bbox?: Box; maxEdge: number }>());
  // State, not a ref: focusing a frame while the camera already fits must still re-render.
  const [fitBox, setFitBox] = useState<Box | null>(focus?.bbox ?? null);

  // One loader per layout and layer set: a toggle re-renders everything without stale tiles.
  const loader: TileLoader<Loaded> = useMemo(
    () =>
      createTileLoader<Loaded>({
        fetch: async (key) => {
          const request = requests.current.get(key);
          if (!request) return { error: { code: 'REVIEW_VIEW_UNKNOWN_TILE', message: key, retryable: false } };
          return viewImage({ layout, maxEdge: request.maxEdge, hiddenLayers, ...(request.bbox ? { bbox: request.bbox } : {}) });
        },
        onLoaded: () => setLoadedCount((n) => n + 1),
      }),
    // hiddenKey stands for hiddenLayers (a new array on every toggle, the same layers by value).
    [layout, hiddenKey, viewImage],
  );
  useEffect(() => () => loader.dispose(), [loader]);

  const baseKey = `${prefix}base`;
  requests.current.set(baseKey, { maxEdge: OVERVIEW_EDGE });
  useEffect(() => loader.want([baseKey]), [loader, baseKey]);
  const base = loader.get(baseKey);

  useEffect(() => {
    if (!focus) return;
    setLayout(focus.layout);
    setFitBox(focus.bbox);
    setCamera(null);
  }, [focus]);

  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const measure = (): void => {
      const width = element.clientWidth || FALLBACK_SIZE.width;
      const height = element.clientHeight || FALLBACK_SIZE.height;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const extent = isTile(base) ? base.region : null;
  const overviewUpp = isTile(base) ? (base.region.maxX - base.region.minX) / base.widthPx : 1;
  const maxUpp = extent ? fitCamera(extent, size).upp * 2 : 1;
  // The first view (and every new focus) fits the focus box, or the whole layout.
  const view: Camera | null = camera ?? (extent ? fitCamera(fitBox ?? extent, size) : null);

  const tiles = useMemo(() => (view && extent ? tilesFor(view, size, extent, overviewUpp) : []), [view, extent, size, overviewUpp]);
  for (const tile of tiles) requests.current.set(prefix + tile.key, { bbox: tile.box, maxEdge: TILE_PX });
  const tileKeys = tiles.map((tile) => prefix + tile.key).join(',');
  useEffect(() => {
    if (!tileKeys) return;
    const timer = setTimeout(() => loader.want(tileKeys.split(',')), TILE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [loader, tileKeys]);

  useEffect(() => {
    movePending(placing ? placing.start : null);
    if (placing) stage.current?.focus({ preventScroll: true });
  }, [placing]);

  const fitted = view === camera ? null : view;
  // Functional updates: several wheel notches or key presses between two renders all count.
  const zoomBy = (factor: number, at?: Point): void =>
    setCamera((c) => {
      const from = c ?? fitted;
      return from ? zoomAt(from, factor, at ?? { x: size.width / 2, y: size.height / 2 }, size, maxUpp) : c;
    });
  const zoomRef = useRef(zoomBy);
  zoomRef.current = zoomBy;
  const panBy = (dx: number, dy: number): void => setCamera((c) => {
    const from = c ?? fitted;
    return from ? pan(from, dx, dy) : c;
  });

  // Native, non-passive: the page must not scroll while the wheel zooms the drawing.
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent): void => {
      event.preventDefault();
      const box = element.getBoundingClientRect();
      zoomRef.current(event.deltaY < 0 ? 1.25 : 0.8, { x: event.clientX - box.left, y: event.clientY - box.top });
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const local = (event: ReactMouseEvent): Point => {
    const box = stage.current?.getBoundingClientRect();
    return { x: event.clientX - (box?.left ?? 0), y: event.clientY - (box?.top ?? 0) };
  };
  const onMouseDown = (event: ReactMouseEvent<HTMLDivElement>): void => {
    if (view) drag.current = { x: event.clientX, y: event.clientY, camera: view, moved: false };
  };
  const onMouseMove = (event: ReactMouseEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_SLOP) return;
    d.moved = true;
    setCamera(pan(d.camera, dx, dy));
  };
  const onMouseUp = (event: ReactMouseEvent<HTMLDivElement>): void => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved || !view) return;
    const at = toDrawing(local(event), view, size);
    if (placing) {
      placing.onPlace(at);
      return;
    }
    const r = PICK_RADIUS_PX * view.upp;
    void pickAt(layout, { minX: at.x - r, minY: at.y - r, maxX: at.x + r, maxY: at.y + r });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (!view) return;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const dir = arrows[event.key];
    const current = pendingRef.current;
    if (placing && current) {
      if (dir) {
        const step = (event.shiftKey ? 1 : NUDGE_STEP) * view.upp;
        movePending({ x: current.x + dir[0] * step, y: current.y - dir[1] * step });
      } else if (event.key === 'Enter') placing.onPlace(current);
      else if (event.key === 'Escape') placing.onCancel();
      else return;
      event.preventDefault();
      return;
    }
    if (dir) panBy(-dir[0] * PAN_STEP, -dir[1] * PAN_STEP);
    else if (event.key === '+' || event.key === '=') zoomBy(1.25);
    else if (event.key === '-') zoomBy(0.8);
    else if (event.key === '0') setCamera(null);
    else return;
    event.preventDefault();
  };

  const picked = inspected && 'entities' in inspected ? inspected.entities[0] : undefined;
  const ctx: OverlayContext | null = view
    ? { toScreen: (p) => toScreen(p, view, size), boxToScreen: (b) => boxToScreen(b, view, size), size, layout }
    : null;
  const pendingAt = pending && ctx ? ctx.toScreen(pending) : null;

  return (
    <div className="viewer" data-testid={testId} data-layout={layout}>
      {layouts.length > 1 && (
        <div className="viewer-tabs" role="tablist" aria-label={t('review.viewer.layouts')}>
          {layouts.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={name === layout}
              className={`viewer-tab${name === layout ? ' active' : ''}`}
              data-testid={`viewer-tab-${name}`}
              onClick={() => {
                setFitBox(null);
                setCamera(null);
                setLayout(name);
              }}
            >
              {layoutLabel(name, t('review.viewer.modelSpace'))}
            </button>
          ))}
        </div>
      )}
      <div
        ref={stage}
        className={`viewer-stage${placing ? ' placing' : ''}`}
        data-testid="viewer-stage"
        data-tiles={tiles.filter((tile) => isTile(loader.get(prefix + tile.key))).length}
        tabIndex={0}
        role="application"
        aria-label={placing ? placing.label : t('review.viewer.label', { layout })}
        onMouseDown={onMouseDown}
        onMouseMove={onMouseMove}
        onMouseUp={onMouseUp}
        onMouseLeave={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        {view && isTile(base) && <img className="viewer-base" src={base.url} alt={layout} style={rect(base.region, view, size)} draggable={false} data-testid="viewer-base" />}
        {view &&
          tiles.map((tile) => {
            const loaded = loader.get(prefix + tile.key);
            return isTile(loaded) ? <img key={tile.key} className="viewer-tile" src={loaded.url} alt="" style={rect(loaded.region, view, size)} draggable={false} /> : null;
          })}
        {ctx && overlay?.(ctx)}
        {ctx && picked?.bbox && <div className="viewer-picked" data-testid="viewer-picked" style={rect(picked.bbox, view as Camera, size)} />}
        {pendingAt && <div className="viewer-crosshair" data-testid="viewer-crosshair" style={{ left: `${pendingAt.x}px`, top: `${pendingAt.y}px` }} />}
        {!base && <p className="hint viewer-status">{t('review.drawing.rendering')}</p>}
        {base && 'error' in base && (
          <p className="form-error viewer-status" role="alert" data-testid="viewer-error" data-code={base.error.code}>
            {t('review.drawing.pictureFailed', { code: base.error.code, message: base.error.message })}
          </p>
        )}
      </div>
      <div className="viewer-tools">
        <button type="button" className="btn-ghost" onClick={() => zoomBy(1.5)} aria-label={t('review.zoom.in')} data-testid="viewer-zoom-in">
          +
        </button>
        <button type="button" className="btn-ghost" onClick={() => setCamera(null)} data-testid="viewer-tools-fit" aria-label={t('review.zoom.reset')}>
          {t('review.zoom.fit')}
        </button>
        <button type="button" className="btn-ghost" onClick={() => zoomBy(1 / 1.5)} aria-label={t('review.zoom.out')}>
          −
        </button>
        <span className="hint">{view && extent ? t('review.zoom.hint', { zoom: Math.round((fitCamera(extent, size).upp / view.upp) * 100) }) : ''}</span>
        <span className="hint">{placing ? t('review.viewer.placeKeys') : t('review.viewer.keys')}</span>
      </div>
    </div>
  );
}

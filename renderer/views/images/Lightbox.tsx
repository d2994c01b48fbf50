import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { VisionRegion, VisionSession } from '../../store/visionSlice';
import { panBy, zoomAt, type View } from './lightboxView';
import { regionFromPoints, type Point } from './regionSelection';
import { SessionImage } from './SessionImage';

const percent = (fraction: number): number => Math.round(fraction * 1000) / 10;
const FIT: View = { scale: 1, x: 0, y: 0 };
/** Keyboard steps: one key press zooms by a quarter or pans by 80 screen pixels. */
const KEY_ZOOM = 1.25;
const KEY_PAN = 80;

/**
 * One session image (or PDF page) at full resolution over the whole window: wheel or +/- to
 * zoom at the pointer, drag or arrow keys to pan, 0 to fit, Esc to close. "Select region" (or a
 * Shift+drag) draws a box instead; the question box then asks about that region (the host crops
 * the original and adds the crop to the session).
 */
export function Lightbox({ session, imageIndex, onClose }: { session: VisionSession; imageIndex: number; onClose: () => void }) {
  const t = useT();
  const zoom = useApp((s) => s.zoomVision);
  const busy = useApp((s) => s.visionBusy);
  const dialog = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const picture = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<View>(FIT);
  const [selecting, setSelecting] = useState(false);
  const [drag, setDrag] = useState<{ kind: 'pan' | 'select'; from: Point; view: View } | null>(null);
  const [region, setRegion] = useState<VisionRegion | null>(null);
  const [prompt, setPrompt] = useState('');
  const image = session.images[imageIndex];
  useEffect(() => dialog.current?.focus(), []);
  if (!image) return null;

  const origin = (): Point => {
    const rect = frame.current!.getBoundingClientRect();
    return { x: rect.left, y: rect.top };
  };
  const regionTo = (event: PointerEvent, from: Point) => regionFromPoints(from, { x: event.clientX, y: event.clientY }, picture.current!.getBoundingClientRect());
  const send = async () => {
    if (!region || prompt.trim() === '' || busy) return;
    if (await zoom(imageIndex, region, prompt.trim())) {
      setRegion(null);
      setPrompt('');
      setSelecting(false);
    }
  };
  const onKey = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement).tagName === 'INPUT') {
      if (event.key === 'Escape') onClose();
      return;
    }
    const centre = (() => {
      const rect = frame.current!.getBoundingClientRect();
      return { x: rect.width / 2, y: rect.height / 2 };
    })();
    const actions: Record<string, () => View> = {
      '+': () => zoomAt(view, KEY_ZOOM, centre),
      '=': () => zoomAt(view, KEY_ZOOM, centre),
      '-': () => zoomAt(view, 1 / KEY_ZOOM, centre),
      '0': () => FIT,
      ArrowLeft: () => panBy(view, KEY_PAN, 0),
      ArrowRight: () => panBy(view, -KEY_PAN, 0),
      ArrowUp: () => panBy(view, 0, KEY_PAN),
      ArrowDown: () => panBy(view, 0, -KEY_PAN),
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (actions[event.key]) {
      event.preventDefault();
      setView(actions[event.key]!());
    }
  };

  return (
    <div className="vision-lightbox" role="dialog" aria-modal="true" aria-label={t('vision.zoom.of', { index: imageIndex, label: image.label })} data-testid="vision-zoom" ref={dialog} tabIndex={-1} onKeyDown={onKey}>
      <div className="vision-lightbox-bar">
        <strong className="vision-lightbox-title">{t('vision.zoom.of', { index: imageIndex, label: image.label })}</strong>
        <span className="vision-lightbox-size">
          {image.width} × {image.height} px · {Math.round(view.scale * 100)}%
        </span>
        <button type="button" className="btn-ghost" data-testid="vision-lightbox-zoom-in" aria-label={t('vision.lightbox.zoomIn')} onClick={() => setView(zoomAt(view, KEY_ZOOM, { x: frame.current!.clientWidth / 2, y: frame.current!.clientHeight / 2 }))}>
          +
        </button>
        <button type="button" className="btn-ghost" aria-label={t('vision.lightbox.zoomOut')} onClick={() => setView(zoomAt(view, 1 / KEY_ZOOM, { x: frame.current!.clientWidth / 2, y: frame.current!.clientHeight / 2 }))}>
          −
        </button>
        <button type="button" className="btn-ghost" onClick={() => setView(FIT)}>
          {t('vision.lightbox.fit')}
        </button>
        <button type="button" className={selecting ? 'btn-primary' : 'btn-ghost'} aria-pressed={selecting} data-testid="vision-zoom-select" onClick={() => setSelecting(!selecting)}>
          {t('vision.lightbox.select')}
        </button>
        <button type="button" className="btn-ghost" onClick={onClose}>
          {t('vision.zoom.close')}
        </button>
      </div>
      <p className="hint vision-lightbox-hint">{selecting ? t('vision.zoom.hint') : t('vision.lightbox.hint')}</p>
      <div
        ref={frame}
        className={`vision-lightbox-frame${selecting ? ' selecting' : ''}`}
        data-testid="vision-lightbox-frame"
        onWheel={(event: WheelEvent) => {
          const o = origin();
          setView(zoomAt(view, Math.exp(-event.deltaY * 0.0015), { x: event.clientX - o.x, y: event.clientY - o.y }));
        }}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          const from = { x: event.clientX, y: event.clientY };
          const kind = selecting || event.shiftKey ? 'select' : 'pan';
          setDrag({ kind, from, view });
          if (kind === 'select') setRegion(null);
        }}
        onPointerMove={(event) => {
          if (!drag) return;
          if (drag.kind === 'pan') setView(panBy(drag.view, event.clientX - drag.from.x, event.clientY - drag.from.y));
          else setRegion(regionTo(event, drag.from));
        }}
        onPointerUp={(event) => {
          if (drag?.kind === 'select') setRegion(regionTo(event, drag.from));
          setDrag(null);
        }}
      >
        {/* The stage fills the frame and scales from its top-left corner, so zoomAt's screen
            coordinates and the transform share one origin; the picture is the image's own box. */}
        <div
          className="vision-lightbox-stage"
          // The view comes from wheel/drag/keys: a React style object (CSSOM), which the CSP allows.
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        >
          <div ref={picture} className="vision-lightbox-picture" data-testid="vision-zoom-stage">
            <SessionImage sessionId={session.id} index={imageIndex} label={image.label} className="vision-lightbox-image" full />
            {region && (
              <div
                className="vision-zoom-box"
                data-testid="vision-zoom-box"
                style={{ left: `${region.x * 100}%`, top: `${region.y * 100}%`, width: `${region.width * 100}%`, height: `${region.height * 100}%` }}
              />
            )}
          </div>
        </div>
      </div>
      {/* Always laid out (hidden until a box exists): a form appearing mid-drag would move the image under the pointer. */}
      <form
        className={`vision-zoom-ask vision-lightbox-ask${region ? '' : ' idle'}`}
        aria-hidden={region ? undefined : true}
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <span className="hint" data-testid="vision-zoom-region">
          {region ? t('vision.zoom.region', { x: percent(region.x), y: percent(region.y), w: percent(region.width), h: percent(region.height) }) : ''}
        </span>
        <input data-testid="vision-zoom-prompt" aria-label={t('vision.zoom.prompt')} value={prompt} placeholder={t('vision.zoom.prompt')} disabled={!region} onChange={(event) => setPrompt(event.target.value)} />
        <button type="submit" className="btn-primary" data-testid="vision-zoom-send" disabled={!region || !!busy || prompt.trim() === ''}>
          {t('vision.zoom.send')}
        </button>
      </form>
    </div>
  );
}

import { useRef, useState, type PointerEvent } from 'react';
import { useApp, useT } from '../../store/StoreContext';
import type { VisionRegion, VisionSession } from '../../store/visionSlice';
import { regionFromPoints, type Point } from './regionSelection';
import { SessionImage } from './SessionImage';

const percent = (fraction: number): number => Math.round(fraction * 1000) / 10;

/**
 * One session image at a readable size: drag a box on it, then ask about that region; the host
 * crops the original at full resolution (visionZoom) and adds the crop to the session.
 */
export function ZoomPanel({ session, imageIndex, onClose }: { session: VisionSession; imageIndex: number; onClose: () => void }) {
  const t = useT();
  const zoom = useApp((s) => s.zoomVision);
  const busy = useApp((s) => s.visionBusy);
  const stage = useRef<HTMLDivElement>(null);
  const [start, setStart] = useState<Point | null>(null);
  const [region, setRegion] = useState<VisionRegion | null>(null);
  const [prompt, setPrompt] = useState('');
  const image = session.images[imageIndex];
  if (!image) return null;

  const regionTo = (event: PointerEvent, from: Point) => {
    const rect = stage.current!.getBoundingClientRect();
    return regionFromPoints(from, { x: event.clientX, y: event.clientY }, rect);
  };
  const send = async () => {
    if (!region || prompt.trim() === '' || busy) return;
    if (await zoom(imageIndex, region, prompt.trim())) {
      setRegion(null);
      setPrompt('');
    }
  };

  return (
    <div className="vision-zoom" data-testid="vision-zoom">
      <div className="vision-zoom-head">
        <strong>{t('vision.zoom.of', { index: imageIndex, label: image.label })}</strong>
        <button type="button" className="btn-ghost" onClick={onClose}>
          {t('vision.zoom.close')}
        </button>
      </div>
      <p className="hint">{t('vision.zoom.hint')}</p>
      <div
        ref={stage}
        className="vision-zoom-stage"
        data-testid="vision-zoom-stage"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          const point = { x: event.clientX, y: event.clientY };
          setStart(point);
          setRegion(null);
        }}
        onPointerMove={(event) => {
          if (start) setRegion(regionTo(event, start));
        }}
        onPointerUp={(event) => {
          if (start) setRegion(regionTo(event, start));
          setStart(null);
        }}
      >
        <SessionImage sessionId={session.id} index={imageIndex} label={image.label} className="vision-zoom-image" />
        {region && (
          <div
            className="vision-zoom-box"
            data-testid="vision-zoom-box"
            // Position comes from the drag: a React style object (CSSOM), which the CSP allows.
            style={{ left: `${region.x * 100}%`, top: `${region.y * 100}%`, width: `${region.width * 100}%`, height: `${region.height * 100}%` }}
          />
        )}
      </div>
      {/* Always laid out (hidden until a box exists): a form appearing mid-drag used to push the
          image up by its height, so the box landed away from where the pointer was pressed. */}
      <form
        className={`vision-zoom-ask${region ? '' : ' idle'}`}
        aria-hidden={region ? undefined : true}
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <span className="hint" data-testid="vision-zoom-region">
          {region ? t('vision.zoom.region', { x: percent(region.x), y: percent(region.y), w: percent(region.width), h: percent(region.height) }) : ''}
        </span>
        <input data-testid="vision-zoom-prompt" value={prompt} placeholder={t('vision.zoom.prompt')} disabled={!region} onChange={(event) => setPrompt(event.target.value)} />
        <button type="submit" className="btn-primary" data-testid="vision-zoom-send" disabled={!region || !!busy || prompt.trim() === ''}>
          {t('vision.zoom.send')}
        </button>
      </form>
    </div>
  );
}

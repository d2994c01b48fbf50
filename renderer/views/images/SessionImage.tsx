import { useEffect } from 'react';
import { useApp } from '../../store/StoreContext';
import { visionImageKey } from '../../store/visionSlice';

/**
 * Thumbnail class for an image's shape: a strip wider (or taller) than 3:1 fitted whole into a
 * 96×72 box is a few pixels of blur, so it fills the box from its start (left or top) instead.
 */
export function thumbClass(width: number, height: number): string {
  if (width > height * 3) return 'vision-thumb vision-thumb-wide';
  if (height > width * 3) return 'vision-thumb vision-thumb-tall';
  return 'vision-thumb';
}

/** A session image fetched once from the host (the bytes sent to the model) and shown as a thumbnail. */
export function SessionImage({ sessionId, index, label, className, full = false }: { sessionId: string; index: number; label: string; className?: string; full?: boolean }) {
  const url = useApp((s) => s.visionImages[visionImageKey(sessionId, index, full)]);
  const load = useApp((s) => s.loadVisionImage);
  useEffect(() => {
    void load(sessionId, index, full);
  }, [load, sessionId, index, full]);
  return url ? (
    <img className={className ?? 'vision-thumb'} src={url} alt={label} title={`#${index} ${label}`} data-testid={`vision-image-${index}`} draggable={false} />
  ) : (
    <span className={`${className ?? 'vision-thumb'} loading`} aria-label={label} />
  );
}

import { useEffect } from 'react';
import { useApp } from '../../store/StoreContext';
import { visionImageKey } from '../../store/visionSlice';

/** A session image fetched once from the host (the bytes sent to the model) and shown as a thumbnail. */
export function SessionImage({ sessionId, index, label, className }: { sessionId: string; index: number; label: string; className?: string }) {
  const url = useApp((s) => s.visionImages[visionImageKey(sessionId, index)]);
  const load = useApp((s) => s.loadVisionImage);
  useEffect(() => {
    void load(sessionId, index);
  }, [load, sessionId, index]);
  return url ? (
    <img className={className ?? 'vision-thumb'} src={url} alt={label} title={`#${index} ${label}`} data-testid={`vision-image-${index}`} draggable={false} />
  ) : (
    <span className={`${className ?? 'vision-thumb'} loading`} aria-label={label} />
  );
}

import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

/** Share of the width the end pane may take: the start pane (the drawing) always keeps at least 40 %. */
const MIN_END = 0.2;
const MAX_END = 0.6;
const KEY_STEP = 0.02;

const clamp = (v: number): number => Math.min(MAX_END, Math.max(MIN_END, v));

/**
 * Two panes side by side with a draggable divider (a window splitter: focusable, ←/→ resize, Home
 * and End go to the limits). The end pane's share is kept as a fraction, so both stay visible when
 * the window is resized; the CSS gives the end pane a minimum width in pixels.
 */
export function SplitPane({ start, end, label, initialEnd = 0.34, testId }: { start: ReactNode; end: ReactNode; label: string; initialEnd?: number; testId?: string }) {
  const [endShare, setEndShare] = useState(clamp(initialEnd));
  const container = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const shareAt = (clientX: number): number => {
    const box = container.current?.getBoundingClientRect();
    return box && box.width > 0 ? clamp((box.right - clientX) / box.width) : endShare;
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    dragging.current = true;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.preventDefault();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    if (dragging.current) setEndShare(shareAt(event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>): void => {
    dragging.current = false;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const moves: Record<string, (s: number) => number> = {
      ArrowLeft: (s) => s + KEY_STEP,
      ArrowRight: (s) => s - KEY_STEP,
      Home: () => MAX_END,
      End: () => MIN_END,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    setEndShare((s) => clamp(move(s)));
  };
  const percent = Math.round(endShare * 100);
  return (
    <div ref={container} className="split" data-testid={testId} style={{ gridTemplateColumns: `minmax(0, 1fr) 10px minmax(260px, ${percent}%)` }}>
      <div className="split-pane split-start">{start}</div>
      <div
        className="split-divider"
        role="separator"
        aria-orientation="vertical"
        aria-label={label}
        aria-valuenow={100 - percent}
        aria-valuemin={Math.round((1 - MAX_END) * 100)}
        aria-valuemax={Math.round((1 - MIN_END) * 100)}
        tabIndex={0}
        data-testid={testId ? `${testId}-divider` : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
      />
      <div className="split-pane split-end">{end}</div>
    </div>
  );
}

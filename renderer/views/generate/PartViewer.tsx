import { useEffect, useRef, useState } from 'react';
import { useT } from '../../store/StoreContext';
import { distanceBetween, nextPicks, type MeasurePick } from './measure';
import { createPartScene, type HoveredFace, type PartScene } from './partScene';
import { VIEW_NAMES, type ViewName } from './viewPresets';

type ViewerState = { status: 'loading' } | { status: 'ready' } | { status: 'no-webgl' } | { status: 'not-fetched' } | { status: 'failed'; message: string };

const NO_TOKENS: readonly string[] = [];
const f3 = (v: number): string => (Math.abs(v) < 5e-4 ? '0' : v.toFixed(3));

/** Kind-specific measurements of a hovered face: Ø and axis for round faces, normal for planes, and area. */
function faceDetails(t: ReturnType<typeof useT>, face: HoveredFace): string[] {
  const details: string[] = [];
  if (face.diameter_mm !== undefined) details.push(t('cadgen.viewer.diameter', { value: face.diameter_mm.toFixed(3) }));
  if (face.concave !== undefined) details.push(t(face.concave ? 'cadgen.viewer.bore' : 'cadgen.viewer.boss'));
  if (face.axis_direction) details.push(t('cadgen.viewer.axis', { x: f3(face.axis_direction[0]), y: f3(face.axis_direction[1]), z: f3(face.axis_direction[2]) }));
  if (face.normal) details.push(t('cadgen.viewer.normal', { x: f3(face.normal[0]), y: f3(face.normal[1]), z: f3(face.normal[2]) }));
  if (face.area_mm2 !== undefined) details.push(t('cadgen.viewer.area', { value: face.area_mm2.toFixed(2) }));
  return details;
}

const mm = (v: number): string => v.toFixed(3);

/** The measure tool's readout: what was picked, and the distance once there are two points. */
function measureText(t: ReturnType<typeof useT>, picks: readonly MeasurePick[]): string {
  if (picks.length === 0) return t('cadgen.viewer.measureHint');
  const described = picks.map((pick, i) => {
    const where = t('cadgen.viewer.measurePoint', { n: i + 1, x: mm(pick.point[0]), y: mm(pick.point[1]), z: mm(pick.point[2]) });
    if (pick.diameter_mm === undefined) return where;
    return `${where} · ${t(pick.source === 'edge' ? 'cadgen.viewer.measureEdgeDiameter' : 'cadgen.viewer.measureFaceDiameter', { value: mm(pick.diameter_mm) })}`;
  });
  if (picks.length === 2) {
    const d = distanceBetween(picks[0]!.point, picks[1]!.point);
    described.push(t('cadgen.viewer.measureDistance', { value: mm(d.distance_mm), dx: mm(Math.abs(d.dx)), dy: mm(Math.abs(d.dy)), dz: mm(Math.abs(d.dz)) }));
  } else {
    described.push(t('cadgen.viewer.measureNext'));
  }
  return described.join(' · ');
}

/** Test ids of the generation task view's viewer (the document mode keeps the cdsl-* ones). */
export interface PartViewerTestIds {
  /** The canvas box, with data-state loading | ready | error. */
  box: string;
  face: string;
}

const BOX_STATE: Record<ViewerState['status'], 'loading' | 'ready' | 'error'> = { loading: 'loading', ready: 'ready', 'no-webgl': 'error', 'not-fetched': 'error', failed: 'error' };

/**
 * The built part in three.js: orbit, fit, and the hovered face's selector token, kind and
 * measurements. `load` fetches the GLB bytes (null = already reported); it runs again when
 * `loadKey` changes. `highlight` colours the faces with those selector tokens.
 */
export function PartViewer({ loadKey, load, highlight = NO_TOKENS, title, testIds }: { loadKey: string; load: () => Promise<Uint8Array | null>; highlight?: readonly string[]; title?: string; testIds?: PartViewerTestIds }) {
  const t = useT();
  const loadRef = useRef(load);
  loadRef.current = load;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const sceneRef = useRef<PartScene | null>(null);
  const [state, setState] = useState<ViewerState>({ status: 'loading' });
  const [face, setFace] = useState<HoveredFace | null>(null);
  const [view, setView] = useState<ViewName>('iso');
  const [measuring, setMeasuring] = useState(false);
  const [picks, setPicks] = useState<MeasurePick[]>([]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let scene: PartScene;
    try {
      scene = createPartScene(canvas, setFace, (pick) => setPicks((current) => nextPicks(current, pick)));
    } catch {
      // WebGLRenderer throws when no context can be created (no GPU and no software fallback).
      setState({ status: 'no-webgl' });
      return;
    }
    sceneRef.current = scene;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) scene.resize(Math.round(entry.contentRect.width), Math.round(entry.contentRect.height));
    });
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      scene.dispose();
      sceneRef.current = null;
    };
  }, []);

  useEffect(() => {
    let cancelled = false;
    setState((s) => (s.status === 'no-webgl' ? s : { status: 'loading' }));
    setFace(null);
    setPicks([]);
    void (async () => {
      const bytes = await loadRef.current();
      const scene = sceneRef.current;
      if (cancelled || !scene) return;
      if (!bytes) {
        // The typed error is already in the banner.
        setState({ status: 'not-fetched' });
        return;
      }
      try {
        await scene.load(bytes);
        if (!cancelled) setState({ status: 'ready' });
      } catch (error) {
        if (!cancelled) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [loadKey]);

  useEffect(() => {
    sceneRef.current?.highlight(highlight);
  }, [highlight, state.status]);

  useEffect(() => {
    sceneRef.current?.setMeasuring(measuring);
    if (!measuring) setPicks([]);
  }, [measuring]);

  useEffect(() => {
    sceneRef.current?.showPicks(picks);
  }, [picks, state.status]);

  const ready = state.status === 'ready';

  return (
    <section className="card cdsl-viewer" aria-label={t('cadgen.viewer.title')} data-testid="cdsl-viewer-card">
      <div className="cdsl-card-head">
        <h2>{title ?? t('cadgen.viewer.title')}</h2>
        <div className="cdsl-viewer-tools" role="toolbar" aria-label={t('cadgen.viewer.tools')}>
          <div className="segmented" role="group" aria-label={t('cadgen.viewer.views')}>
            {VIEW_NAMES.map((name) => (
              <button
                key={name}
                type="button"
                className={view === name ? 'active' : ''}
                aria-pressed={view === name}
                data-testid={`cdsl-view-${name}`}
                disabled={!ready}
                onClick={() => {
                  setView(name);
                  sceneRef.current?.setView(name);
                }}
              >
                {t(`cadgen.viewer.view.${name}`)}
              </button>
            ))}
          </div>
          <button type="button" className="btn-ghost" data-testid="cdsl-fit" disabled={!ready} onClick={() => sceneRef.current?.fit()}>
            {t('cadgen.viewer.fit')}
          </button>
          <button type="button" className={measuring ? 'btn-primary' : 'btn-ghost'} aria-pressed={measuring} data-testid="cdsl-measure" disabled={!ready} onClick={() => setMeasuring((on) => !on)}>
            {t('cadgen.viewer.measure')}
          </button>
        </div>
      </div>
      <div className="cdsl-canvas-box" data-testid={testIds?.box} data-state={BOX_STATE[state.status]}>
        <canvas ref={canvasRef} className="cdsl-canvas" data-testid="cdsl-canvas" data-state={state.status} />
        {state.status === 'loading' && <div className="cdsl-canvas-note">{t('cadgen.viewer.loading')}</div>}
        {state.status === 'no-webgl' && (
          <div className="cdsl-canvas-note warning" data-testid="cdsl-no-webgl">
            {t('cadgen.viewer.noWebgl')}
          </div>
        )}
        {state.status === 'not-fetched' && <div className="cdsl-canvas-note warning">{t('cadgen.viewer.fetchFailed')}</div>}
        {state.status === 'failed' && <div className="cdsl-canvas-note warning">{t('cadgen.viewer.loadFailed', { message: state.message })}</div>}
      </div>
      {measuring && (
        <p className="cdsl-measure mono" data-testid="cdsl-measure-readout" data-picks={picks.length} aria-live="polite">
          {measureText(t, picks)}
        </p>
      )}
      <p className="cdsl-face mono" data-testid={testIds?.face ?? 'cdsl-face-readout'} data-token={face?.token ?? ''}>
        {face ? [t('cadgen.viewer.face', { token: face.token, kind: face.kind }), ...faceDetails(t, face)].join(' · ') : t('cadgen.viewer.hoverHint')}
      </p>
    </section>
  );
}

import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../shared/errors';
import { createAppStore, type AppStore } from '../../store/appStore';
import type { DrawingOverview, FindingView, RunDetail } from '../../store/reviewSlice';
import { StoreProvider } from '../../store/StoreContext';
import { scriptedBridge, type ScriptedHandler } from '../../testSupport/scriptedBridge';
import { ReviewView } from './ReviewView';

const ok = (value: unknown): Result<unknown> => ({ ok: true, value });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const image = { dataBase64: PNG, mimeType: 'image/png', widthPx: 1600, heightPx: 1000 };

const frame = (id: string, minX: number, layout = 'Model') => ({ id, label: `Frame ${id}`, layout, sheetName: 'A3', bbox: { minX, minY: 0, maxX: minX + 420, maxY: 297 }, titleBlock: { title: `Part ${id}` }, origin: 'detected' as const });
const drawing = (path = '/data/drawings/a/sample.dxf', label = 'sample.dxf'): DrawingOverview => ({
  source: { kind: 'sample', label, path },
  connection: null,
  tools: [],
  info: { version: 'AC1024', units: 'millimeters', codePage: null, entityCount: 10, layouts: [{ name: 'Model', entityCount: 8 }, { name: 'Sheet 1', entityCount: 2 }], problems: [] },
  layers: [
    { name: '0', color: 7, on: true, frozen: false, locked: false, entityCount: 3 },
    { name: 'DIM', color: 1, on: true, frozen: false, locked: false, entityCount: 5 },
    { name: 'HIDDEN', color: 2, on: false, frozen: false, locked: false, entityCount: 1 },
  ],
  frames: [frame('92', 0), frame('E9', 500)],
  missingCapabilities: [],
  warnings: [],
});
const counts = { blocking: 0, major: 1, minor: 0, info: 0 };
const finding = (n: number, anchor: { x: number; y: number }): FindingView => ({
  id: String(n).repeat(64).slice(0, 64),
  shortId: `f${n}`,
  frameId: '92',
  checklistItemId: 'DIM-001',
  severity: 'major',
  source: 'rule',
  hypothesis: false,
  message: `Finding ${n}`,
  evidenceRefs: ['tool:get_dimensions', `entity:${n}A`],
  location: { kind: 'point', point: anchor },
  annotation: { state: n === 1 ? 'approved' : 'proposed', text: `note ${n}`, anchor, textAt: { x: anchor.x + 30, y: anchor.y + 20 }, textHeight: 3.5 },
  payloadHash: 'a'.repeat(64),
  writtenAt: null,
});
const run = (): RunDetail => ({
  run: { id: 'run-1', source: 'sample.dxf', status: 'completed', llm: false, createdAt: '2026-11-30T00:00:00Z', updatedAt: '2026-11-30T00:00:00Z', findings: 2, bySeverity: counts, framesDone: 1, framesTotal: 1, error: null },
  frames: [{ frame: frame('92', 0), status: 'done', error: null, screenshot: null, counts }],
  // Two findings on the same value: their markers must not overlap.
  findings: [finding(1, { x: 100, y: 100 }), finding(2, { x: 100, y: 100 })],
  checklistItems: [],
  report: null,
  savedDrawing: null,
});

const viewerHandlers = (current: () => DrawingOverview): Record<string, ScriptedHandler> => ({
  reviewGetDrawing: () => ok(current()),
  reviewListRuns: () => ok({ runs: [] }),
  reviewFrameImage: () => ok({ ...image, widthPx: 640, heightPx: 452 }),
  reviewViewImage: (input) => ok({ image, layout: input.layout, region: input.bbox ?? { minX: -20, minY: -20, maxX: 1000, maxY: 617.5 } }),
  reviewPickEntities: () => ok({ entities: [{ handle: '2F', type: 'LINE', layer: 'DIM', bbox: { minX: 10, minY: 10, maxX: 50, maxY: 10 }, properties: { start: '[10,10]' } }], total: 1 }),
  reviewGetEntity: (input) => ok({ handle: input.handle, type: 'DIMENSION', layer: 'DIM', bbox: { minX: 90, minY: 90, maxX: 110, maxY: 110 }, properties: {} }),
});

async function mount(store: AppStore) {
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <ReviewView />
      </StoreProvider>,
    );
  });
}
const settle = () => act(async () => new Promise((r) => setTimeout(r, 250)));

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Review view', () => {
  it('shows a grouped finding once with the number of places it stands for', async () => {
    const places = [{ kind: 'point' as const, point: { x: 100, y: 100 } }, { kind: 'point' as const, point: { x: 200, y: 120 } }, { kind: 'point' as const, point: { x: 260, y: 90 } }];
    const grouped = { ...finding(1, { x: 100, y: 100 }), checklistItemId: 'TXT-001', count: 3, locations: places };
    const fake = scriptedBridge({ ...viewerHandlers(() => drawing()), reviewGetRun: () => ok({ ...run(), findings: [grouped, finding(2, { x: 300, y: 200 })] }) });
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await act(async () => store.getState().selectRun('run-1'));
    await waitFor(() => expect(screen.getByTestId('finding-1')).toBeTruthy());
    const pills = screen.getAllByTestId('finding-count');
    expect(pills.map((p) => p.textContent)).toEqual(['×3']);
    expect(screen.getByTestId('finding-1').contains(pills[0]!)).toBe(true);
  });

  it('shows the frame pictures again after leaving Review and coming back', async () => {
    const fake = scriptedBridge(viewerHandlers(() => drawing()));
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await waitFor(() => expect(screen.getByTestId('frame-card-92').querySelector('img')).not.toBeNull());
    cleanup();
    await mount(store);
    await settle();
    for (const id of ['92', 'E9']) expect(screen.getByTestId(`frame-card-${id}`).querySelector('img')).not.toBeNull();
    // The viewer's picture is back at once, from the store's pictures, not asked for again.
    expect(screen.getByTestId('viewer-base')).toBeTruthy();
    expect(fake.calls.filter((c) => c.channel === 'reviewViewImage')).toHaveLength(1);
  });

  it('offers a tab per layout, hides toggled layers in the pictures it asks for, and inspects the entity under a click', async () => {
    const fake = scriptedBridge(viewerHandlers(() => drawing()));
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await waitFor(() => expect(screen.getByTestId('viewer-base')).toBeTruthy());
    expect(screen.getByTestId('viewer-tab-Sheet 1')).toBeTruthy();
    expect((screen.getByTestId('layer-toggle-HIDDEN') as HTMLInputElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByTestId('layer-toggle-DIM'));
    });
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'reviewViewImage' && c.input.hiddenLayers.includes('DIM'))).toBe(true));

    await act(async () => {
      fireEvent.click(screen.getByTestId('viewer-tab-Sheet 1'));
    });
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'reviewViewImage' && c.input.layout === 'Sheet 1')).toBe(true));

    const stage = screen.getByTestId('viewer-stage');
    await act(async () => {
      fireEvent.mouseDown(stage, { clientX: 400, clientY: 260 });
      fireEvent.mouseUp(stage, { clientX: 400, clientY: 260 });
    });
    await waitFor(() => expect(screen.getByTestId('inspector-handle').textContent).toBe('2F'));
    const pick = fake.calls.find((c) => c.channel === 'reviewPickEntities')!.input;
    expect(pick.layout).toBe('Sheet 1');
    expect(pick.bbox.maxX).toBeGreaterThan(pick.bbox.minX);
  });

  it('asks for tiles only once the zoom has settled, a bounded number per view, each once', async () => {
    const fake = scriptedBridge(viewerHandlers(() => drawing()));
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await waitFor(() => expect(screen.getByTestId('viewer-base')).toBeTruthy());
    const stage = screen.getByTestId('viewer-stage');
    const tiles = () => fake.calls.filter((c) => c.channel === 'reviewViewImage' && c.input.bbox);
    await act(async () => {
      for (let i = 0; i < 12; i++) fireEvent.keyDown(stage, { key: '+' });
    });
    expect(tiles()).toHaveLength(0);
    await settle();
    await settle();
    const asked = tiles().length;
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(24);
    expect(new Set(tiles().map((c) => JSON.stringify(c.input.bbox))).size).toBe(asked);
    expect(tiles().every((c) => c.input.maxEdge === 512)).toBe(true);
  });

  it('clears the previous run from the main area when another DXF is opened', async () => {
    let current = drawing();
    const fake = scriptedBridge({ ...viewerHandlers(() => current), reviewGetRun: () => ok(run()), reviewOpenDxf: () => ok((current = drawing('/data/drawings/b/other.dxf', 'other.dxf'))) });
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await act(async () => store.getState().selectRun('run-1'));
    expect(screen.getByTestId('run-view')).toBeTruthy();
    await act(async () => store.getState().openDxfFile(new File(['0\nEOF\n'], 'other.dxf')));
    expect(screen.queryByTestId('run-view')).toBeNull();
    expect(screen.getByTestId('drawing-panel').textContent).toContain('other.dxf');
  });

  it('shows a run on the live drawing with spread markers, the leader to be written, the cited entity, and moves an arrow from the keyboard', async () => {
    const fake = scriptedBridge({ ...viewerHandlers(() => drawing()), reviewGetRun: () => ok(run()), reviewDecide: (input) => ok({ ...run().findings[1]!, annotation: { ...run().findings[1]!.annotation, state: 'edited', anchor: input.decision.anchor } }) });
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await act(async () => store.getState().selectRun('run-1'));
    await waitFor(() => expect(screen.getByTestId('marker-2')).toBeTruthy());
    expect(screen.getByTestId('run-announce').textContent).toBe('Review Completed: 2 findings.');
    const at = (id: string) => {
      const el = screen.getByTestId(id) as HTMLElement;
      return { x: parseFloat(el.style.left), y: parseFloat(el.style.top) };
    };
    const [m1, m2] = [at('marker-1'), at('marker-2')];
    expect(Math.hypot(m1.x - m2.x, m1.y - m2.y)).toBeGreaterThanOrEqual(24);
    expect(screen.getByTestId('leader-preview-1')).toBeTruthy();
    expect(screen.queryByTestId('leader-preview-2')).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByTestId('finding-2'));
    });
    await waitFor(() => expect(screen.getByTestId('cited-entity').getAttribute('data-handle')).toBe('2A'));

    await act(async () => {
      fireEvent.click(screen.getByTestId('finding-2').querySelector('[data-testid="finding-move"]')!);
    });
    const stage = screen.getByTestId('viewer-stage');
    expect(document.activeElement).toBe(stage);
    // Selecting the finding centred the drawing on it: the arrow tip starts in the middle of the 800 × 520 stage.
    const crosshair = screen.getByTestId('viewer-crosshair') as HTMLElement;
    expect(parseFloat(crosshair.style.left)).toBeCloseTo(400, 3);
    expect(parseFloat(crosshair.style.top)).toBeCloseTo(260, 3);
    await act(async () => {
      fireEvent.keyDown(stage, { key: 'ArrowRight' });
      fireEvent.keyDown(stage, { key: 'ArrowRight' });
      fireEvent.keyDown(stage, { key: 'ArrowUp', shiftKey: true });
      fireEvent.keyDown(stage, { key: 'Enter' });
    });
    const decided = fake.calls.find((c) => c.channel === 'reviewDecide')!.input;
    expect(decided.decision.kind).toBe('edit');
    // Two coarse steps right (8 px each), one fine step up (1 px), in drawing units of the fitted frame.
    // Zoomed to the finding: half the frame (420 × 297) fitted into the 800 × 520 fallback stage with 4 % room.
    const upp = Math.max(420 / 2 / 800, 297 / 2 / 520) * 1.04;
    expect(decided.decision.anchor.x).toBeCloseTo(100 + 16 * upp, 3);
    expect(decided.decision.anchor.y).toBeCloseTo(100 + upp, 3);
  });

  it('downloads the report and the annotated drawing through the browser with their file names', async () => {
    const detail = { ...run(), report: { folder: '/r', json: '/r/report.json', markdown: '/r/report.md' }, savedDrawing: '/d/sample.ai-review.dxf' };
    const fake = scriptedBridge({
      ...viewerHandlers(() => drawing()),
      reviewGetRun: () => ok(detail),
      reviewDownloadFile: (input) => ok({ fileName: input.kind === 'dxf' ? 'sample.ai-review.dxf' : 'report.md', mimeType: 'text/plain', dataBase64: btoa('0\nEOF\n') }),
    });
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), `blob:test/${blobs.length}`), revokeObjectURL: () => {} }));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const store = createAppStore(fake.bridge, 'en');
    await mount(store);
    await act(async () => store.getState().selectRun('run-1'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('download-dxf'));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('download-markdown'));
    });
    await waitFor(() => expect(names).toEqual(['sample.ai-review.dxf', 'report.md']));
    expect(blobs[0]!.size).toBe('0\nEOF\n'.length);
    expect(fake.calls.filter((c) => c.channel === 'reviewDownloadFile').map((c) => c.input)).toEqual([
      { runId: 'run-1', kind: 'dxf' },
      { runId: 'run-1', kind: 'markdown' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import { createAppStore } from './appStore';
import type { DrawingOverview, RunDetail } from './reviewSlice';
import { scriptedBridge } from '../testSupport/scriptedBridge';

const ok = (value: unknown): Result<unknown> => ({ ok: true, value });
const drawing: DrawingOverview = {
  source: { kind: 'sample', label: 'sample.dxf', path: '/data/drawings/x/sample.dxf' },
  connection: null,
  tools: [],
  info: null,
  layers: [],
  frames: [],
  missingCapabilities: [],
  warnings: [],
};
const counts = { blocking: 0, major: 0, minor: 0, info: 0 };
const runDetail = (status: RunDetail['run']['status']): RunDetail => ({
  run: { id: 'run-1', source: 'sample.dxf', status, llm: false, createdAt: '2026-11-30T00:00:00Z', updatedAt: '2026-11-30T00:00:00Z', findings: 0, bySeverity: counts, framesDone: 0, framesTotal: 0, error: null },
  frames: [],
  findings: [],
  checklistItems: [],
  report: null,
  savedDrawing: null,
});

describe('review store slice', () => {
  it('opens the bundled sample when no drawing is open yet, and keeps an open one otherwise', async () => {
    const first = scriptedBridge({ reviewGetDrawing: () => ok(null), reviewOpenSample: () => ok(drawing), reviewListRuns: () => ok({ runs: [] }) });
    const store = createAppStore(first.bridge, 'en');
    await store.getState().initReview();
    expect(first.calls.map((c) => c.channel)).toEqual(['reviewGetDrawing', 'reviewOpenSample', 'reviewListRuns']);
    expect(store.getState().drawing).toEqual(drawing);
    expect(store.getState().reviewReady).toBe(true);

    const second = scriptedBridge({ reviewGetDrawing: () => ok(drawing), reviewListRuns: () => ok({ runs: [] }) });
    await createAppStore(second.bridge, 'en').getState().initReview();
    expect(second.calls.map((c) => c.channel)).not.toContain('reviewOpenSample');
  });

  it('drops the progress bar of a run that finished before the start reply arrived', async () => {
    let status: RunDetail['run']['status'] = 'running';
    const fake = scriptedBridge({
      reviewGetDrawing: () => ok(drawing),
      reviewListRuns: () => ok({ runs: [] }),
      reviewGetRun: () => ok(runDetail(status)),
      reviewStart: () => {
        // The whole run (and its status event) completes before the reply is handled.
        status = 'completed';
        fake.emit('reviewRunStatus', { runId: 'run-1', status: 'completed', error: null });
        return ok({ runId: 'run-1' });
      },
    });
    const store = createAppStore(fake.bridge, 'en');
    await store.getState().initReview();
    await store.getState().startReview({ checklistPath: null, llm: false, model: null });
    expect(store.getState().run?.run.status).toBe('completed');
    expect(store.getState().progress).toBeNull();
  });

  it('sends exactly the payload hashes of the confirmed plan and shows typed failures in the banner', async () => {
    const plan = { target: 'sample.dxf', saveTo: '/data/x.ai-review.dxf', items: [{ findingId: 'a', shortId: 'aaaaaaaa', tool: 'add_leader_annotation', points: [], text: 't', height: 3.5, payloadHash: 'h1' }] };
    const failure = { code: 'REVIEW_WRITE_FAILED', message: 'nope', retryable: false };
    const fake = scriptedBridge({
      reviewGetDrawing: () => ok(drawing),
      reviewListRuns: () => ok({ runs: [] }),
      reviewGetRun: () => ok(runDetail('completed')),
      reviewPreviewWrite: () => ok(plan),
      reviewWriteApproved: () => ok({ written: [], recognised: [], failed: [{ findingId: 'a', error: failure }], savedPath: null }),
    });
    const store = createAppStore(fake.bridge, 'en');
    await store.getState().initReview();
    await store.getState().selectRun('run-1');
    await store.getState().previewWrite();
    expect(store.getState().writePlan).toEqual(plan);
    await store.getState().confirmWrite();
    expect(fake.calls.find((c) => c.channel === 'reviewWriteApproved')?.input).toEqual({ runId: 'run-1', payloadHashes: ['h1'] });
    expect(store.getState().writePlan).toBeNull();
    expect(store.getState().banner.map((b) => b.error.code)).toEqual(['REVIEW_WRITE_FAILED']);
  });

  it('keeps a failed frame picture on its card and shows one banner for the same error however many calls fail', async () => {
    const lost = { code: 'IPC_DISCONNECTED', message: 'Lost the connection', retryable: true };
    const fake = scriptedBridge({ reviewGetDrawing: () => ok(drawing), reviewListRuns: () => ({ ok: false, error: lost }), reviewFrameImage: () => ({ ok: false, error: lost }), reviewGetRun: () => ({ ok: false, error: lost }) });
    const store = createAppStore(fake.bridge, 'en');
    await store.getState().initReview();
    await Promise.all([store.getState().loadFrameImage('92', 'thumb'), store.getState().loadFrameImage('E9', 'thumb')]);
    expect(store.getState().frameImages['thumb/92']).toEqual({ error: lost });
    await store.getState().selectRun('run-1');
    await store.getState().loadRuns();
    expect(store.getState().banner.map((b) => b.error.code)).toEqual(['IPC_DISCONNECTED']);
  });

  it('keeps a failed first load on the Review screen (with a retry) instead of the banner', async () => {
    const lost = { code: 'IPC_DISCONNECTED', message: 'Lost the connection', retryable: true };
    let up = false;
    const fake = scriptedBridge({
      reviewGetDrawing: () => ok(null),
      reviewOpenSample: () => (up ? ok(drawing) : { ok: false, error: lost }),
      reviewListRuns: () => ok({ runs: [] }),
    });
    const store = createAppStore(fake.bridge, 'en');
    await store.getState().initReview();
    expect(store.getState().startupError).toEqual(lost);
    expect(store.getState().banner).toEqual([]);
    up = true;
    await store.getState().initReview();
    expect(store.getState().startupError).toBeNull();
    expect(store.getState().drawing).toEqual(drawing);
  });

  it('follows the AutoCAD connection state pushed by the host', async () => {
    const fake = scriptedBridge({ reviewGetDrawing: () => ok(drawing), reviewListRuns: () => ok({ runs: [] }) });
    const store = createAppStore(fake.bridge, 'en');
    await store.getState().initReview();
    fake.emit('cadConnection', { state: 'backoff', endpoint: '127.0.0.1:8080', failures: 2, retryInMs: 800, reason: 'ECONNREFUSED' });
    expect(store.getState().connection).toMatchObject({ state: 'backoff', failures: 2 });
  });

  it('sends the picked file\'s own path in the desktop app so the annotated copy lands next to it, and none in browser mode', async () => {
    const file = new File(['0\nSECTION\n0\nEOF\n'], 'plan.dxf');
    const desktop = scriptedBridge({ reviewOpenDxf: () => ok(drawing) }, { pathForFile: () => '/home/li/plan.dxf' });
    await createAppStore(desktop.bridge, 'en').getState().openDxfFile(file);
    expect(desktop.calls[0]?.input).toMatchObject({ fileName: 'plan.dxf', originalPath: '/home/li/plan.dxf' });

    const browser = scriptedBridge({ reviewOpenDxf: () => ok(drawing) });
    await createAppStore(browser.bridge, 'en').getState().openDxfFile(file);
    expect(browser.calls[0]?.input).not.toHaveProperty('originalPath');
    // A file without a path of its own (e.g. dragged from a browser) is opened like in browser mode.
    const pathless = scriptedBridge({ reviewOpenDxf: () => ok(drawing) }, { pathForFile: () => '' });
    await createAppStore(pathless.bridge, 'en').getState().openDxfFile(file);
    expect(pathless.calls[0]?.input).not.toHaveProperty('originalPath');
  });
});

import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openDatabase } from '../../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../../platform/db/types';
import { parseChecklist } from '../domain/checklist';
import { reviewMigrations } from '../adapters/reviewMigrations';
import { createSqliteReviewStore } from '../adapters/sqliteReviewStore';
import { createFolderOutput } from '../adapters/folderOutput';
import type { ReviewStore, RunOptions } from '../ports/reviewStore';
import { resumeReview, startReview, type ReviewRunnerDeps } from './reviewRunner';
import { createFakeBackend, threeFrameDrawing } from './testkit/fakeDrawing';

const repoRoot = path.resolve(__dirname, '../../../..');
const checklist = parseChecklist(readFileSync(path.join(repoRoot, 'resources/checklist/review_checklist.json'), 'utf8'), 'default');
const options: RunOptions = { llm: false, locale: 'en', frames: null };

let dir: string;
let db: SqliteDatabase;
let store: ReviewStore;
let deps: ReviewRunnerDeps;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'review-run-'));
  db = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: reviewMigrations }).db;
  store = createSqliteReviewStore(db, () => new Date('2026-11-30T08:00:00Z'));
  let counter = 0;
  deps = { store, now: () => new Date('2026-11-30T08:00:00Z'), newRunId: () => `run-${++counter}`, generatorVersion: 'test' };
});
afterEach(() => db.close());

const session = (backend: ReturnType<typeof createFakeBackend>, concurrency = 2, signal?: AbortSignal) => ({
  source: backend.source,
  output: createFolderOutput(path.join(dir, 'out')),
  concurrency,
  ...(signal ? { signal } : {}),
});

describe('a rules-only review', () => {
  it('finds exactly the planted problems, each in its frame, and writes a report that validates', async () => {
    const backend = createFakeBackend(threeFrameDrawing());
    const result = await startReview(deps, session(backend), checklist, options);
    expect(result.status).toBe('completed');
    const found = result.report!.findings.map((f) => `${f.frameId}:${f.checklistItemId}`).sort();
    expect(found).toEqual(['F1:DIM-001', 'F2:LAY-001', 'F2:TXT-001', 'F3:GEO-001', 'F3:GEO-002', 'F3:TB-001', 'null:GEO-003']);
    expect(result.report!.summary.hasBlocking).toBe(true);
    expect(result.report!.notEvaluated.map((n) => n.checklistItemId)).toEqual(['LLM-001', 'LLM-002', 'LLM-003', 'LLM-004', 'LLM-005']);

    const schema = JSON.parse(readFileSync(path.join(repoRoot, 'resources/review/report.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
    const written = JSON.parse(readFileSync(path.join(dir, 'out/report.json'), 'utf8'));
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
    const markdown = readFileSync(path.join(dir, 'out/report.md'), 'utf8');
    expect(markdown).toContain('![F3](screenshots/F3.png)');
    expect(markdown).toContain('The title block\'s revision field is empty.');
    expect(existsSync(path.join(dir, 'out/screenshots/F1.png'))).toBe(true);
  });

  it("writes the report in the run's language and the annotations in the drawing's (Chinese here)", async () => {
    const result = await startReview(deps, session(createFakeBackend(threeFrameDrawing())), checklist, options);
    const dim = result.report!.findings.find((f) => f.checklistItemId === 'DIM-001')!;
    expect(dim.message).toMatch(/^Dimension text overridden/);
    expect(dim.proposedAnnotation.text).toMatch(/^假尺寸/);
  });

  it('gives a re-run of the same drawing and checklist the same finding ids', async () => {
    const first = await startReview(deps, session(createFakeBackend(threeFrameDrawing())), checklist, options);
    const second = await startReview(deps, session(createFakeBackend(threeFrameDrawing())), checklist, options);
    expect(second.report!.findings.map((f) => f.id)).toEqual(first.report!.findings.map((f) => f.id));
    expect(second.report!.drawing.fingerprint).toBe(first.report!.drawing.fingerprint);
  });

  it('treats a drawing without frames as one whole-drawing frame', async () => {
    const drawing = { ...threeFrameDrawing(), frames: [] };
    const result = await startReview(deps, session(createFakeBackend(drawing)), checklist, options);
    expect(result.report!.frames.map((f) => f.frame.id)).toEqual(['whole']);
    expect(result.report!.findings.some((f) => f.checklistItemId === 'GEO-003' || f.checklistItemId === 'TB-001')).toBe(false);
  });

  it('refuses an unknown --frames id and names the known ones', async () => {
    await expect(startReview(deps, session(createFakeBackend(threeFrameDrawing())), checklist, { ...options, frames: ['F9'] })).rejects.toMatchObject({
      code: 'REVIEW_FRAME_NOT_FOUND',
      data: { known: ['F1', 'F2', 'F3'] },
    });
  });

  it('never has more frames in flight than the concurrency bound', async () => {
    const backend = createFakeBackend(threeFrameDrawing());
    let inFlight = 0;
    let peak = 0;
    backend.onCall = async (name) => {
      if (name !== 'get_screenshot') return;
      peak = Math.max(peak, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
    };
    await startReview(deps, session(backend, 2), checklist, options);
    expect(peak).toBe(2);
  });
});

describe('failures, cancel and resume', () => {
  it('records a failed frame, completes the others, and a resume redoes only that frame', async () => {
    const backend = createFakeBackend(threeFrameDrawing());
    backend.failTool('get_screenshot', (args) => (args.bbox as number[])[0] === 450);
    const result = await startReview(deps, session(backend), checklist, options);
    expect(result.report!.summary.failedFrames).toBe(1);
    expect(result.report!.frames[1]!.error?.code).toBe('REVIEW_SOURCE_TOOL_FAILED');

    const healthy = createFakeBackend(threeFrameDrawing());
    const retried = await resumeReview(deps, session(healthy), result.runId);
    expect(retried.report!.summary.failedFrames).toBe(0);
    expect(healthy.calls.filter((c) => c.name === 'get_screenshot').map((c) => (c.args.bbox as number[])[0])).toEqual([450]);
    expect(retried.report!.findings.map((f) => f.id).sort()).toEqual(
      (await startReview(deps, session(createFakeBackend(threeFrameDrawing())), checklist, options)).report!.findings.map((f) => f.id).sort(),
    );

    // A completed run without failures keeps its report; resuming it does no work.
    const idle = createFakeBackend(threeFrameDrawing());
    expect((await resumeReview(deps, session(idle), result.runId)).status).toBe('completed');
    expect(idle.calls).toHaveLength(0);
  });

  it('stops starting frames on cancel and resumes without redoing finished frames', async () => {
    const backend = createFakeBackend(threeFrameDrawing());
    const controller = new AbortController();
    backend.onCall = (name) => {
      if (name === 'get_screenshot') controller.abort();
    };
    const cancelled = await startReview(deps, session(backend, 1, controller.signal), checklist, options);
    expect(cancelled.status).toBe('cancelled');
    expect(store.listFrames(cancelled.runId).map((f) => f.status)).toEqual(['done', 'pending', 'pending']);

    const again = createFakeBackend(threeFrameDrawing());
    const resumed = await resumeReview(deps, session(again), cancelled.runId);
    expect(resumed.status).toBe('completed');
    const shots = again.calls.filter((c) => c.name === 'get_screenshot').map((c) => (c.args.bbox as number[])[0]!);
    expect(shots.sort((a, b) => a - b)).toEqual([450, 900]);
    expect(resumed.report!.findings.map((f) => f.frameId)).toContain('F1');
  });

  it('refuses to resume on a different drawing', async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = await startReview(deps, session(createFakeBackend(threeFrameDrawing()), 1, controller.signal), checklist, options);
    const changed = threeFrameDrawing();
    changed.entities.push({ handle: '99', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 1, minY: 1, maxX: 2, maxY: 2 } });
    await expect(resumeReview(deps, session(createFakeBackend(changed)), cancelled.runId)).rejects.toMatchObject({ code: 'REVIEW_DRAWING_CHANGED' });
  });
});

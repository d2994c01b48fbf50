import { mkdtempSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../../platform/db/types';
import { parseChecklist } from '../domain/checklist';
import { reviewMigrations } from '../adapters/reviewMigrations';
import { createSqliteReviewStore } from '../adapters/sqliteReviewStore';
import { createFolderOutput } from '../adapters/folderOutput';
import type { ReviewStore } from '../ports/reviewStore';
import { startReview } from './reviewRunner';
import { decideAnnotation, listAnnotatedFindings, writeApprovedAnnotations } from './annotationWriter';
import { createFakeBackend, threeFrameDrawing } from './testkit/fakeDrawing';

const checklist = parseChecklist(readFileSync(path.resolve(__dirname, '../../../../resources/checklist/review_checklist.json'), 'utf8'), 'default');
const now = () => new Date('2026-11-30T08:00:00Z');

let dir: string;
let db: SqliteDatabase;
let store: ReviewStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'review-write-'));
  db = openDatabase({ file: path.join(dir, 'cadsight.db'), migrations: reviewMigrations }).db;
  store = createSqliteReviewStore(db, now);
});
afterEach(() => db.close());

async function reviewed(backend = createFakeBackend(threeFrameDrawing())) {
  let n = 0;
  const deps = { store, now, newRunId: () => `run-${Date.now()}-${++n}`, generatorVersion: 'test' };
  const result = await startReview(deps, { source: backend.source, output: createFolderOutput(path.join(dir, 'out')), concurrency: 2 }, checklist, { llm: false, locale: 'en', frames: null });
  return { backend, runId: result.runId, items: listAnnotatedFindings(store, result.runId) };
}

describe('the annotation writer', () => {
  it('writes only approved annotations as leaders with the arrow tip at the finding and the short id in the text, then saves', async () => {
    const { backend, runId, items } = await reviewed();
    const [first, second, third] = items;
    decideAnnotation(store, first!.finding.id, { kind: 'approve', payloadHash: first!.payloadHash });
    decideAnnotation(store, second!.finding.id, { kind: 'edit', text: '请核对尺寸' });
    decideAnnotation(store, third!.finding.id, { kind: 'reject' });

    const outcome = await writeApprovedAnnotations(store, backend.source, backend.target, runId, now);
    expect(outcome.written.sort()).toEqual([first!.finding.id, second!.finding.id].sort());
    const leaders = backend.calls.filter((c) => c.name === 'add_leader_annotation');
    expect(leaders).toHaveLength(2);
    const firstLeader = leaders.find((c) => String(c.args.text).includes(first!.finding.shortId))!;
    const anchor = first!.finding.proposedAnnotation.anchor;
    expect((firstLeader.args.points as unknown[])[0]).toEqual([anchor.x, anchor.y]);
    expect(leaders.some((c) => c.args.text === `[AI-R ${second!.finding.shortId}] 请核对尺寸`)).toBe(true);
    expect(backend.calls.filter((c) => c.name === 'save_drawing')).toHaveLength(1);
    expect(outcome.saved).toContain('ai-review.dxf');
    expect(store.getAnnotation(first!.finding.id)?.state).toBe('written');
  });

  it('writes nothing new when asked again or after a re-run of the same drawing', async () => {
    const { backend, runId, items } = await reviewed();
    decideAnnotation(store, items[0]!.finding.id, { kind: 'approve', payloadHash: items[0]!.payloadHash });
    await writeApprovedAnnotations(store, backend.source, backend.target, runId, now);
    const before = backend.calls.length;
    const again = await writeApprovedAnnotations(store, backend.source, backend.target, runId, now);
    expect(again).toEqual({ written: [], recognised: [], failed: [], saved: null });

    const rerun = await reviewed(backend);
    expect(rerun.items.find((i) => i.finding.id === items[0]!.finding.id)?.annotation.state).toBe('written');
    await writeApprovedAnnotations(store, backend.source, backend.target, rerun.runId, now);
    expect(backend.calls.slice(before).filter((c) => c.name === 'add_leader_annotation')).toHaveLength(0);
  });

  it('recognises an annotation already on AI_REVIEW after an interrupted write and does not write it twice', async () => {
    const { backend, runId, items } = await reviewed();
    const item = items[0]!;
    decideAnnotation(store, item.finding.id, { kind: 'approve', payloadHash: item.payloadHash });
    backend.drawing.texts.push({ handle: 'OLD', text: `[AI-R ${item.finding.shortId}] written before a crash`, at: { x: 0, y: 0 }, height: 3.5, layer: 'AI_REVIEW' });
    const outcome = await writeApprovedAnnotations(store, backend.source, backend.target, runId, now);
    expect(outcome.recognised).toEqual([item.finding.id]);
    expect(backend.calls.filter((c) => c.name === 'add_leader_annotation')).toHaveLength(0);
    expect(store.getWrite(item.finding.id)?.payloadHash).toBe(item.payloadHash);
  });

  it('refuses an approval that names a payload other than the current one', async () => {
    const { items } = await reviewed();
    expect(() => decideAnnotation(store, items[0]!.finding.id, { kind: 'approve', payloadHash: 'f'.repeat(64) })).toThrow(expect.objectContaining({ code: 'REVIEW_APPROVAL_STALE' }));
  });

  it('reports a leader the backend refuses as failed and leaves it unwritten', async () => {
    const { backend, runId, items } = await reviewed();
    decideAnnotation(store, items[0]!.finding.id, { kind: 'approve', payloadHash: items[0]!.payloadHash });
    backend.failTool('add_leader_annotation');
    const outcome = await writeApprovedAnnotations(store, backend.source, backend.target, runId, now);
    expect(outcome.failed.map((f) => f.error.code)).toEqual(['REVIEW_WRITE_FAILED']);
    expect(store.getAnnotation(items[0]!.finding.id)?.state).toBe('approved');
    expect(backend.calls.filter((c) => c.name === 'save_drawing')).toHaveLength(0);
  });
});

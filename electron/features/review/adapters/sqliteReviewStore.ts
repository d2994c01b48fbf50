import { AppError, type AppErrorData } from '../../../../shared/errors';
import { listSkippingDamaged, type DamagedRow } from '../../../platform/db/damagedRows';
import { immediate } from '../../../platform/db/immediate';
import type { SqliteDatabase } from '../../../platform/db/types';
import { annotationSchema, type Annotation } from '../domain/annotation';
import { checklistSchema } from '../domain/checklist';
import { findingSchema, type Finding } from '../domain/finding';
import { frameSchema } from '../domain/frame';
import { reportSchema } from '../domain/report';
import type { FrameStatus, ReviewStore, RunRecord, RunStatus, RunUsage, WriteRecord } from '../ports/reviewStore';

const ZERO_USAGE: RunUsage = { toolCalls: 0, toolResultBytes: 0, llmCalls: 0, promptTokens: 0, completionTokens: 0, contextBytes: 0, llmLatencyMs: 0 };

interface RunRow {
  id: string;
  source: string;
  fingerprint: string;
  checklist_json: string;
  checklist_hash: string;
  options_json: string;
  missing_json: string;
  status: StoredRunStatus;
  error_json: string | null;
  usage_json: string;
  created_at: string;
  updated_at: string;
}

interface FrameRow {
  idx: number;
  frame_json: string;
  status: StoredFrameStatus;
  evidence_json: string | null;
  screenshots_json: string;
  error_json: string | null;
}

/**
 * The tables' CHECK constraints predate the partial outcomes, and SQLite cannot change a CHECK
 * without rebuilding the parent table (which would cascade-delete children). So a partial
 * outcome is stored as its base status plus the error that made it partial: a `completed` run
 * with an error is `completed_with_errors`, a `done` frame with an error is `llm_failed`.
 */
type StoredRunStatus = 'running' | 'cancelled' | 'failed' | 'completed';
type StoredFrameStatus = 'pending' | 'done' | 'failed';
const storedRunStatus = (status: RunStatus): StoredRunStatus => (status === 'completed_with_errors' ? 'completed' : status);
const runStatusOf = (row: { status: StoredRunStatus; error_json: string | null }): RunStatus =>
  row.status === 'completed' && row.error_json !== null ? 'completed_with_errors' : row.status;
const frameStatusOf = (row: { status: StoredFrameStatus; error_json: string | null }): FrameStatus =>
  row.status === 'done' && row.error_json !== null ? 'llm_failed' : row.status;

const parseError = (json: string | null): AppErrorData | null => (json === null ? null : (JSON.parse(json) as AppErrorData));

function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    source: row.source,
    fingerprint: row.fingerprint,
    // Rows are re-validated on read: a database edited by hand must not feed bad data onward.
    checklist: checklistSchema.parse(JSON.parse(row.checklist_json)),
    checklistHash: row.checklist_hash,
    options: JSON.parse(row.options_json) as RunRecord['options'],
    missingCapabilities: JSON.parse(row.missing_json) as string[],
    status: runStatusOf(row),
    error: parseError(row.error_json),
    usage: { ...ZERO_USAGE, ...(JSON.parse(row.usage_json) as Partial<RunUsage>) },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * ReviewStore on the app's SQLite database (tables from reviewMigrations). `onDamagedRow` receives
 * a run row listRuns could not read (it is left out of the list instead of failing it).
 */
export function createSqliteReviewStore(db: SqliteDatabase, now: () => Date, onDamagedRow: (row: DamagedRow) => void = () => undefined): ReviewStore {
  const stamp = (): string => now().toISOString();
  const requireRun = (runId: string): void => {
    if (!db.prepare('SELECT 1 FROM review_runs WHERE id = ?').get(runId)) {
      throw new AppError('REVIEW_RUN_NOT_FOUND', `Review run ${runId} does not exist.`, { data: { runId } });
    }
  };
  const insertFinding = db.prepare(
    `INSERT INTO review_findings (run_id, finding_id, frame_id, seq, finding_json)
     VALUES (@runId, @id, @frameId, (SELECT COUNT(*) FROM review_findings WHERE run_id = @runId), @json)
     ON CONFLICT (run_id, finding_id) DO UPDATE SET finding_json = excluded.finding_json`,
  );
  const storeFindings = (runId: string, findings: readonly Finding[]): void => {
    for (const f of findings) insertFinding.run({ runId, id: f.id, frameId: f.frameId, json: JSON.stringify(f) });
  };

  return {
    createRun(run, frames, drawingFindings) {
      immediate(db, () => {
        db.prepare(
          `INSERT INTO review_runs (id, source, fingerprint, checklist_json, checklist_hash, options_json, missing_json, status, usage_json, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(run.id, run.source, run.fingerprint, JSON.stringify(run.checklist), run.checklistHash, JSON.stringify(run.options), JSON.stringify(run.missingCapabilities), run.status, JSON.stringify(ZERO_USAGE), run.createdAt, run.createdAt);
        const insertFrame = db.prepare(`INSERT INTO review_frames (run_id, frame_id, idx, frame_json, status) VALUES (?, ?, ?, ?, 'pending')`);
        frames.forEach((frame, index) => insertFrame.run(run.id, frame.id, index, JSON.stringify(frame)));
        storeFindings(run.id, drawingFindings);
      });
    },
    getRun(runId) {
      const row = db.prepare('SELECT * FROM review_runs WHERE id = ?').get(runId) as RunRow | undefined;
      return row ? toRun(row) : undefined;
    },
    listRuns(limit) {
      return listSkippingDamaged<RunRow & { rowid: number }, RunRecord>({
        db,
        table: 'review_runs',
        limit,
        all: () => db.prepare('SELECT rowid, * FROM review_runs ORDER BY created_at DESC, id DESC LIMIT ?').all(limit) as Array<RunRow & { rowid: number }>,
        byRowid: (rowid) => db.prepare('SELECT rowid, * FROM review_runs WHERE rowid = ?').get(rowid) as (RunRow & { rowid: number }) | undefined,
        decode: toRun,
        compare: (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
        onDamaged: onDamagedRow,
      });
    },
    setRunStatus(runId, status, error, at) {
      requireRun(runId);
      if (status === 'completed_with_errors' && !error) throw new AppError('REVIEW_STATUS_NEEDS_ERROR', `Run ${runId}: completed_with_errors needs the error that made it partial.`, { data: { runId } });
      const kept = status === 'completed' ? null : error;
      immediate(db, () => db.prepare('UPDATE review_runs SET status = ?, error_json = ?, updated_at = ? WHERE id = ?').run(storedRunStatus(status), kept ? JSON.stringify(kept) : null, at, runId));
    },
    addUsage(runId, usage) {
      immediate(db, () => {
        const row = db.prepare('SELECT usage_json FROM review_runs WHERE id = ?').get(runId) as { usage_json: string } | undefined;
        if (!row) throw new AppError('REVIEW_RUN_NOT_FOUND', `Review run ${runId} does not exist.`, { data: { runId } });
        const current = { ...ZERO_USAGE, ...(JSON.parse(row.usage_json) as Partial<RunUsage>) };
        for (const [key, value] of Object.entries(usage) as [keyof RunUsage, number][]) current[key] += value;
        db.prepare('UPDATE review_runs SET usage_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(current), stamp(), runId);
      });
    },
    listFrames(runId) {
      const rows = db.prepare('SELECT * FROM review_frames WHERE run_id = ? ORDER BY idx').all(runId) as FrameRow[];
      return rows.map((row) => ({
        frame: frameSchema.parse(JSON.parse(row.frame_json)),
        index: row.idx,
        status: frameStatusOf(row),
        evidence: row.evidence_json === null ? null : JSON.parse(row.evidence_json),
        screenshots: JSON.parse(row.screenshots_json),
        error: parseError(row.error_json),
      }));
    },
    completeFrame(runId, frameId, result) {
      immediate(db, () => {
        const changed = db
          .prepare(`UPDATE review_frames SET status = 'done', evidence_json = ?, screenshots_json = ?, error_json = ? WHERE run_id = ? AND frame_id = ?`)
          .run(JSON.stringify(result.evidence), JSON.stringify(result.screenshots), result.llmError ? JSON.stringify(result.llmError) : null, runId, frameId).changes;
        if (changed !== 1) throw new AppError('REVIEW_RUN_NOT_FOUND', `Frame ${frameId} of run ${runId} does not exist.`, { data: { runId, frameId } });
        storeFindings(runId, result.findings);
        db.prepare('UPDATE review_runs SET updated_at = ? WHERE id = ?').run(stamp(), runId);
      });
    },
    failFrame(runId, frameId, error) {
      immediate(db, () => db.prepare(`UPDATE review_frames SET status = 'failed', error_json = ? WHERE run_id = ? AND frame_id = ?`).run(JSON.stringify(error), runId, frameId));
    },
    getFinding(findingId) {
      const row = db.prepare('SELECT f.finding_json FROM review_findings f JOIN review_runs r ON r.id = f.run_id WHERE f.finding_id = ? ORDER BY r.created_at DESC LIMIT 1').get(findingId) as { finding_json: string } | undefined;
      return row ? findingSchema.parse(JSON.parse(row.finding_json)) : undefined;
    },
    promoteFinding(findingId) {
      immediate(db, () => {
        const rows = db.prepare('SELECT run_id, finding_json FROM review_findings WHERE finding_id = ?').all(findingId) as { run_id: string; finding_json: string }[];
        const update = db.prepare('UPDATE review_findings SET finding_json = ? WHERE run_id = ? AND finding_id = ?');
        for (const row of rows) {
          const { hypothesis: _hypothesis, ...confirmed } = findingSchema.parse(JSON.parse(row.finding_json));
          update.run(JSON.stringify(confirmed), row.run_id, findingId);
        }
      });
    },
    listFindings(runId) {
      const rows = db.prepare('SELECT finding_json FROM review_findings WHERE run_id = ? ORDER BY seq').all(runId) as { finding_json: string }[];
      return rows.map((row) => findingSchema.parse(JSON.parse(row.finding_json)));
    },
    saveReport(runId, report) {
      immediate(db, () => db.prepare('UPDATE review_runs SET report_json = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(report), stamp(), runId));
    },
    getReport(runId) {
      const row = db.prepare('SELECT report_json FROM review_runs WHERE id = ?').get(runId) as { report_json: string | null } | undefined;
      return row?.report_json ? reportSchema.parse(JSON.parse(row.report_json)) : undefined;
    },
    proposeAnnotations(annotations) {
      immediate(db, () => {
        const insert = db.prepare('INSERT INTO review_annotations (finding_id, state, annotation_json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (finding_id) DO NOTHING');
        for (const a of annotations) insert.run(a.findingId, a.state, JSON.stringify(a), stamp());
      });
    },
    getAnnotation(findingId) {
      const row = db.prepare('SELECT annotation_json FROM review_annotations WHERE finding_id = ?').get(findingId) as { annotation_json: string } | undefined;
      return row ? annotationSchema.parse(JSON.parse(row.annotation_json)) : undefined;
    },
    listAnnotations(findingIds) {
      const get = db.prepare('SELECT annotation_json FROM review_annotations WHERE finding_id = ?');
      return findingIds.flatMap((id) => {
        const row = get.get(id) as { annotation_json: string } | undefined;
        return row ? [annotationSchema.parse(JSON.parse(row.annotation_json))] : [];
      });
    },
    saveAnnotation(annotation) {
      immediate(db, () =>
        db
          .prepare('INSERT INTO review_annotations (finding_id, state, annotation_json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (finding_id) DO UPDATE SET state = excluded.state, annotation_json = excluded.annotation_json, updated_at = excluded.updated_at')
          .run(annotation.findingId, annotation.state, JSON.stringify(annotation), stamp()),
      );
    },
    recordWrite(record: WriteRecord, annotation: Annotation) {
      return immediate(db, () => {
        const inserted = db
          .prepare('INSERT INTO review_write_log (finding_id, run_id, payload_hash, written_at) VALUES (?, ?, ?, ?) ON CONFLICT (finding_id) DO NOTHING')
          .run(record.findingId, record.runId, record.payloadHash, record.writtenAt).changes;
        if (inserted === 0) return false;
        db.prepare('UPDATE review_annotations SET state = ?, annotation_json = ?, updated_at = ? WHERE finding_id = ?').run(annotation.state, JSON.stringify(annotation), record.writtenAt, annotation.findingId);
        return true;
      });
    },
    getWrite(findingId) {
      const row = db.prepare('SELECT * FROM review_write_log WHERE finding_id = ?').get(findingId) as
        | { finding_id: string; run_id: string; payload_hash: string; written_at: string }
        | undefined;
      return row ? { findingId: row.finding_id, runId: row.run_id, payloadHash: row.payload_hash, writtenAt: row.written_at } : undefined;
    },
  };
}

import type { Migration } from '../../../platform/db/types';

/**
 * Review tables. Findings and annotations are keyed by the stable finding id, so a re-run of the
 * same drawing and checklist updates rows instead of duplicating them, and a user's decision on
 * an annotation survives re-runs. The write log is keyed by finding id alone: at most one write.
 */
export const reviewMigrations: Migration[] = [
  {
    id: 'review-001-runs',
    up(db) {
      db.exec(`
        CREATE TABLE review_runs (
          id TEXT PRIMARY KEY,
          source TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          checklist_json TEXT NOT NULL,
          checklist_hash TEXT NOT NULL,
          options_json TEXT NOT NULL,
          missing_json TEXT NOT NULL DEFAULT '[]',
          status TEXT NOT NULL CHECK (status IN ('running','cancelled','failed','completed')),
          error_json TEXT,
          usage_json TEXT NOT NULL,
          report_json TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX review_runs_created ON review_runs(created_at);
        CREATE TABLE review_frames (
          run_id TEXT NOT NULL REFERENCES review_runs(id) ON DELETE CASCADE,
          frame_id TEXT NOT NULL,
          idx INTEGER NOT NULL,
          frame_json TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending','done','failed')),
          evidence_json TEXT,
          screenshots_json TEXT NOT NULL DEFAULT '[]',
          error_json TEXT,
          PRIMARY KEY (run_id, frame_id)
        );
        CREATE TABLE review_findings (
          run_id TEXT NOT NULL REFERENCES review_runs(id) ON DELETE CASCADE,
          finding_id TEXT NOT NULL,
          frame_id TEXT,
          seq INTEGER NOT NULL,
          finding_json TEXT NOT NULL,
          PRIMARY KEY (run_id, finding_id)
        );
        CREATE TABLE review_annotations (
          finding_id TEXT PRIMARY KEY,
          state TEXT NOT NULL CHECK (state IN ('proposed','approved','edited','rejected','written')),
          annotation_json TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE review_write_log (
          finding_id TEXT PRIMARY KEY,
          run_id TEXT NOT NULL,
          payload_hash TEXT NOT NULL,
          written_at TEXT NOT NULL
        );
      `);
    },
  },
];

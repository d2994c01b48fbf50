import type { Migration } from '../../../../platform/db/types';

/** CDSL v3 generation tables (seed §6.2): SQLite is the only authority of task state. */
export const cadgenMigrations: readonly Migration[] = [
  {
    id: 'cadgen-001-generation-protocol',
    up(db) {
      db.exec(`
        CREATE TABLE cdsl_tasks (
          task_id TEXT PRIMARY KEY NOT NULL,
          state TEXT NOT NULL,
          state_version INTEGER NOT NULL,
          working_head TEXT NOT NULL,
          record_json TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE cdsl_runs (run_id TEXT PRIMARY KEY NOT NULL, task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), started_at TEXT NOT NULL);
        CREATE TABLE cdsl_sources (task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), source_id TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (task_id, source_id));
        CREATE TABLE cdsl_drafts (task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), draft_id TEXT NOT NULL, item_json TEXT NOT NULL, removed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (task_id, draft_id));
        CREATE TABLE cdsl_reviews (review_id INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), kind TEXT NOT NULL, target TEXT NOT NULL, verdict TEXT NOT NULL, body_json TEXT NOT NULL, at TEXT NOT NULL);
        CREATE TABLE cdsl_contracts (task_id TEXT PRIMARY KEY NOT NULL REFERENCES cdsl_tasks(task_id), contract_json TEXT NOT NULL, contract_hash TEXT NOT NULL, frozen_at TEXT NOT NULL);
        CREATE TABLE cdsl_pending_actions (task_id TEXT PRIMARY KEY NOT NULL REFERENCES cdsl_tasks(task_id), action_id TEXT NOT NULL, pending_json TEXT NOT NULL, idempotency_key TEXT NOT NULL);
        CREATE TABLE cdsl_observations (task_id TEXT PRIMARY KEY NOT NULL REFERENCES cdsl_tasks(task_id), head TEXT NOT NULL, snapshot_id TEXT NOT NULL);
        CREATE TABLE cdsl_invocations (
          invocation_id TEXT PRIMARY KEY NOT NULL, task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), run_id TEXT NOT NULL, tool TEXT NOT NULL, role TEXT NOT NULL,
          idempotency_key TEXT, raw_sha256 TEXT NOT NULL, status TEXT NOT NULL, result_json TEXT, state_version INTEGER NOT NULL, at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX cdsl_invocations_key ON cdsl_invocations(task_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE TABLE cdsl_candidates (
          candidate_id TEXT PRIMARY KEY NOT NULL, task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), action_id TEXT NOT NULL, idempotency_key TEXT NOT NULL,
          base_head TEXT NOT NULL, fragment_sha256 TEXT NOT NULL, snapshot_id TEXT, status TEXT NOT NULL, document_json TEXT NOT NULL, revision_id TEXT NOT NULL, report_json TEXT,
          UNIQUE (task_id, idempotency_key)
        );
        CREATE TABLE cdsl_revisions (
          task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), revision_id TEXT NOT NULL, parent_revision TEXT, action_id TEXT NOT NULL, candidate_id TEXT NOT NULL,
          document_json TEXT NOT NULL, snapshot_id TEXT NOT NULL, dir TEXT NOT NULL, manifest_json TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (task_id, revision_id), UNIQUE (task_id, action_id), UNIQUE (task_id, candidate_id)
        );
        CREATE TABLE cdsl_claim_results (task_id TEXT NOT NULL, revision_id TEXT NOT NULL, claim_id TEXT NOT NULL, status TEXT NOT NULL, result_json TEXT NOT NULL, PRIMARY KEY (task_id, revision_id, claim_id));
        CREATE TABLE cdsl_usage (usage_id INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL, role TEXT NOT NULL, tool TEXT NOT NULL, usage_json TEXT NOT NULL, at TEXT NOT NULL);
        CREATE TABLE cdsl_ledger (task_id TEXT NOT NULL REFERENCES cdsl_tasks(task_id), sequence INTEGER NOT NULL, line TEXT NOT NULL, appended INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (task_id, sequence));
        CREATE TABLE cdsl_outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, task_id TEXT NOT NULL, type TEXT NOT NULL, payload_json TEXT NOT NULL, dispatched_at TEXT);
        CREATE TABLE cdsl_model_capabilities (provider_id TEXT NOT NULL, model TEXT NOT NULL, passed INTEGER NOT NULL, report_json TEXT NOT NULL, checked_at TEXT NOT NULL, PRIMARY KEY (provider_id, model));
      `);
    },
  },
];

/**
 * One driver per task (issue 24): run/resume/answer hold this lease; an expired one may be taken
 * over. Shipped after visionTilesMigration, so the app's list appends it at the end.
 */
export const cadgenLeaseMigration: Migration = {
  id: 'cadgen-002-task-leases',
  up(db) {
    db.exec('CREATE TABLE cdsl_task_leases (task_id TEXT PRIMARY KEY NOT NULL REFERENCES cdsl_tasks(task_id), owner TEXT NOT NULL, heartbeat_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);');
  },
};

/**
 * Every model call is charged when it starts (issue 24): a usage row is written as `started`
 * before the request goes out and reconciled (`completed` / `failed`) with the call's own usage;
 * one a crash cut off stays charged and is marked `interrupted` by the next driver.
 */
export const cadgenUsageAttemptsMigration: Migration = {
  id: 'cadgen-003-usage-attempts',
  up(db) {
    db.exec(`
      ALTER TABLE cdsl_usage ADD COLUMN call_id TEXT;
      ALTER TABLE cdsl_usage ADD COLUMN status TEXT NOT NULL DEFAULT 'completed';
      CREATE UNIQUE INDEX cdsl_usage_call ON cdsl_usage(task_id, call_id) WHERE call_id IS NOT NULL;
    `);
  },
};

/**
 * The audit keeps each model output's redacted raw arguments (bounded, seed §4.1) and the field
 * errors of a refused one, besides the hash; rows written before stay without them (NULL).
 */
export const cadgenInvocationRecordMigration: Migration = {
  id: 'cadgen-004-invocation-records',
  up(db) {
    db.exec('ALTER TABLE cdsl_invocations ADD COLUMN raw_redacted TEXT; ALTER TABLE cdsl_invocations ADD COLUMN field_errors_json TEXT;');
  },
};

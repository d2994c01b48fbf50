import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../../shared/errors';
import { immediate } from '../../../../platform/db/immediate';
import type { SqliteDatabase } from '../../../../platform/db/types';
import type { ClaimResult } from '../../application/evaluateClaims';
import type { CandidateRow, Clock, InvocationAudit, InvocationRow, RevisionRow, TaskChange, TaskRepository, TaskSnapshot, UsageRow } from '../../application/protocol/ports';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import type { DraftItem, TaskRecord } from '../../domain/protocol/task';

const LEDGER_SCHEMA = 'cad.action-ledger.v1';

function storageFailure(error: unknown): AppError {
  if (error instanceof AppError && error.code.startsWith('CDSL_')) return error;
  return protocolError(ProtocolErrorCode.storageFailure, 'The task database refused the change.', { reason: (error as { code?: string }).code ?? (error instanceof AppError ? error.code : 'unknown') });
}

/** SQLite TaskRepository: every commit is one IMMEDIATE transaction with CAS on state_version. */
export function createSqliteTaskRepository(db: SqliteDatabase, clock: Clock): TaskRepository {
  const json = (value: unknown): string => JSON.stringify(value);
  const parse = <T>(text: string): T => JSON.parse(text) as T;

  function taskRow(taskId: string): { record_json: string; state_version: number } {
    const row = db.prepare('SELECT record_json, state_version FROM cdsl_tasks WHERE task_id = ?').get(taskId) as { record_json: string; state_version: number } | undefined;
    if (!row) throw protocolError(ProtocolErrorCode.taskNotFound, `No generation task ${taskId}.`, { task_id: taskId });
    return row;
  }

  function readTask(taskId: string): TaskRecord {
    const row = taskRow(taskId);
    return { ...parse<TaskRecord>(row.record_json), state_version: row.state_version };
  }

  function writeLedger(taskId: string, events: NonNullable<TaskChange['ledger']>, at: string): void {
    const last = (db.prepare('SELECT MAX(sequence) AS s FROM cdsl_ledger WHERE task_id = ?').get(taskId) as { s: number | null }).s ?? 0;
    const insert = db.prepare('INSERT INTO cdsl_ledger (task_id, sequence, line) VALUES (?, ?, ?)');
    events.forEach((event, i) => {
      const sequence = last + i + 1;
      insert.run(taskId, sequence, json({ schema_version: LEDGER_SCHEMA, sequence, ...event, at }));
    });
  }

  function apply(taskId: string, version: number, change: TaskChange, at: string): void {
    if (change.task) {
      const next = { ...readTask(taskId), ...change.task, state_version: version + 1, updated_at: at };
      db.prepare('UPDATE cdsl_tasks SET state = ?, state_version = ?, working_head = ?, record_json = ?, updated_at = ? WHERE task_id = ?').run(next.state, version + 1, next.working_head, json(next), at, taskId);
    } else {
      db.prepare('UPDATE cdsl_tasks SET state_version = ?, updated_at = ? WHERE task_id = ?').run(version + 1, at, taskId);
    }
    for (const source of change.sources ?? []) db.prepare('INSERT INTO cdsl_sources (task_id, source_id, text) VALUES (?, ?, ?)').run(taskId, source.source_id, source.text);
    for (const draft of change.drafts ?? []) db.prepare('INSERT OR REPLACE INTO cdsl_drafts (task_id, draft_id, item_json, removed) VALUES (?, ?, ?, 0)').run(taskId, draft.draft_id, json(draft.item));
    for (const id of change.removeDrafts ?? []) db.prepare('UPDATE cdsl_drafts SET removed = 1 WHERE task_id = ? AND draft_id = ?').run(taskId, id);
    if (change.review) db.prepare('INSERT INTO cdsl_reviews (task_id, kind, target, verdict, body_json, at) VALUES (?, ?, ?, ?, ?, ?)').run(taskId, change.review.kind, change.review.target, change.review.verdict, json(change.review.body), at);
    if (change.contract) db.prepare('INSERT INTO cdsl_contracts (task_id, contract_json, contract_hash, frozen_at) VALUES (?, ?, ?, ?)').run(taskId, json(change.contract.contract), change.contract.hash, at);
    if (change.pending === null) db.prepare('DELETE FROM cdsl_pending_actions WHERE task_id = ?').run(taskId);
    else if (change.pending) db.prepare('INSERT OR REPLACE INTO cdsl_pending_actions (task_id, action_id, pending_json, idempotency_key) VALUES (?, ?, ?, ?)').run(taskId, change.pending.action_id, json(change.pending), change.pending.idempotency_key);
    if (change.observation === null) db.prepare('DELETE FROM cdsl_observations WHERE task_id = ?').run(taskId);
    else if (change.observation) db.prepare('INSERT OR REPLACE INTO cdsl_observations (task_id, head, snapshot_id) VALUES (?, ?, ?)').run(taskId, change.observation.head, change.observation.snapshot_id);
    const inv = change.invocation;
    if (inv) {
      const run = readTask(taskId).run_id;
      db.prepare(
        `INSERT INTO cdsl_invocations (invocation_id, task_id, run_id, tool, role, idempotency_key, raw_sha256, raw_redacted, field_errors_json, status, result_json, state_version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(invocation_id) DO UPDATE SET status = excluded.status, result_json = excluded.result_json, field_errors_json = excluded.field_errors_json`,
      ).run(inv.invocation_id, taskId, run, inv.tool, inv.role, inv.idempotency_key, inv.raw_sha256, inv.raw_redacted, inv.field_errors ? json(inv.field_errors) : null, inv.status, inv.result_json, inv.state_version, at);
    }
    const c = change.candidate;
    if (c) {
      db.prepare(
        `INSERT INTO cdsl_candidates (candidate_id, task_id, action_id, idempotency_key, base_head, fragment_sha256, snapshot_id, status, document_json, revision_id, report_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(candidate_id) DO UPDATE SET status = excluded.status, report_json = excluded.report_json`,
      ).run(c.candidate_id, taskId, c.action_id, c.idempotency_key, c.base_head, c.fragment_sha256, c.snapshot_id, c.status, c.document_json, c.revision_id, c.report_json);
    }
    const r = change.revision;
    if (r) {
      db.prepare('INSERT INTO cdsl_revisions (task_id, revision_id, parent_revision, action_id, candidate_id, document_json, snapshot_id, dir, manifest_json, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
        taskId, r.revision_id, r.parent_revision, r.action_id, r.candidate_id, r.document_json, r.snapshot_id, r.dir, r.manifest_json, at,
      );
    }
    if (change.claimResults) {
      const insert = db.prepare('INSERT OR REPLACE INTO cdsl_claim_results (task_id, revision_id, claim_id, status, result_json) VALUES (?, ?, ?, ?, ?)');
      for (const result of change.claimResults.results) insert.run(taskId, change.claimResults.revision_id, result.id, result.status, json(result));
    }
    for (const u of change.usage ?? []) {
      const reconciled = u.call_id ? db.prepare('UPDATE cdsl_usage SET tool = ?, usage_json = ?, status = ?, at = ? WHERE task_id = ? AND call_id = ?').run(u.tool, json(u.usage), u.status ?? 'completed', at, taskId, u.call_id).changes : 0;
      if (reconciled === 0) db.prepare('INSERT INTO cdsl_usage (task_id, role, tool, usage_json, at, call_id, status) VALUES (?, ?, ?, ?, ?, ?, ?)').run(taskId, u.role, u.tool, json(u.usage), at, u.call_id ?? null, u.status ?? 'completed');
    }
    if (change.ledger?.length) writeLedger(taskId, change.ledger, at);
    for (const o of change.outbox ?? []) db.prepare('INSERT INTO cdsl_outbox (task_id, type, payload_json) VALUES (?, ?, ?)').run(taskId, o.type, json(o.payload));
  }

  return {
    create(task, sources, outbox) {
      try {
        immediate(db, () => {
          db.prepare('INSERT INTO cdsl_tasks (task_id, state, state_version, working_head, record_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
            task.task_id, task.state, task.state_version, task.working_head, json(task), task.created_at, task.updated_at,
          );
          db.prepare('INSERT INTO cdsl_runs (run_id, task_id, started_at) VALUES (?, ?, ?)').run(task.run_id, task.task_id, task.created_at);
          const insert = db.prepare('INSERT INTO cdsl_sources (task_id, source_id, text) VALUES (?, ?, ?)');
          for (const s of sources) insert.run(task.task_id, s.source_id, s.text);
          db.prepare('INSERT INTO cdsl_outbox (task_id, type, payload_json) VALUES (?, ?, ?)').run(task.task_id, outbox.type, json(outbox.payload));
        });
      } catch (error) {
        throw storageFailure(error);
      }
    },
    load(taskId) {
      const task = readTask(taskId);
      const all = <T>(sql: string): T[] => db.prepare(sql).all(taskId) as T[];
      const contractRow = db.prepare('SELECT contract_json, contract_hash FROM cdsl_contracts WHERE task_id = ?').get(taskId) as { contract_json: string; contract_hash: string } | undefined;
      const pendingRow = db.prepare('SELECT pending_json FROM cdsl_pending_actions WHERE task_id = ?').get(taskId) as { pending_json: string } | undefined;
      const observation = db.prepare('SELECT head, snapshot_id FROM cdsl_observations WHERE task_id = ?').get(taskId) as TaskSnapshot['observation'] | undefined;
      const claimResults = new Map<string, ClaimResult[]>();
      for (const row of all<{ revision_id: string; result_json: string }>('SELECT revision_id, result_json FROM cdsl_claim_results WHERE task_id = ? ORDER BY claim_id')) {
        claimResults.set(row.revision_id, [...(claimResults.get(row.revision_id) ?? []), parse<ClaimResult>(row.result_json)]);
      }
      return {
        task,
        sources: all('SELECT source_id, text FROM cdsl_sources WHERE task_id = ? ORDER BY source_id'),
        drafts: all<{ draft_id: string; item_json: string }>('SELECT draft_id, item_json FROM cdsl_drafts WHERE task_id = ? AND removed = 0 ORDER BY draft_id').map((d): DraftItem => ({ draft_id: d.draft_id, item: parse(d.item_json) })),
        contract: contractRow ? { contract: parse(contractRow.contract_json), hash: contractRow.contract_hash } : null,
        pending: pendingRow ? parse(pendingRow.pending_json) : null,
        observation: observation ?? null,
        revisions: all<RevisionRow>('SELECT revision_id, parent_revision, action_id, candidate_id, document_json, snapshot_id, dir, manifest_json FROM cdsl_revisions WHERE task_id = ? ORDER BY revision_id'),
        candidates: all<CandidateRow>('SELECT candidate_id, action_id, idempotency_key, base_head, fragment_sha256, snapshot_id, status, document_json, revision_id, report_json FROM cdsl_candidates WHERE task_id = ? ORDER BY candidate_id'),
        claimResults,
        invocationCount: (db.prepare('SELECT COUNT(*) AS n FROM cdsl_invocations WHERE task_id = ?').get(taskId) as { n: number }).n,
      };
    },
    commit(taskId, expectedVersion, change) {
      const at = clock.now().toISOString();
      try {
        return immediate(db, () => {
          const current = taskRow(taskId).state_version;
          if (current !== expectedVersion) {
            throw protocolError(ProtocolErrorCode.staleWorkingHead, 'The task changed since it was read; read the current facts again.', { task_id: taskId, expected_version: expectedVersion, current_version: current });
          }
          apply(taskId, current, change, at);
          return current + 1;
        });
      } catch (error) {
        throw storageFailure(error);
      }
    },
    list() {
      return (db.prepare('SELECT record_json, state_version FROM cdsl_tasks ORDER BY created_at DESC').all() as { record_json: string; state_version: number }[]).map((r) => ({ ...parse<TaskRecord>(r.record_json), state_version: r.state_version }));
    },
    invocationByKey(taskId, key) {
      const row = db.prepare('SELECT invocation_id, tool, role, idempotency_key, raw_sha256, raw_redacted, field_errors_json, status, result_json, state_version FROM cdsl_invocations WHERE task_id = ? AND idempotency_key = ?').get(taskId, key) as (Omit<InvocationRow, 'field_errors'> & { field_errors_json: string | null }) | undefined;
      if (row) {
        const { field_errors_json: errors, ...rest } = row;
        return { ...rest, field_errors: errors ? parse(errors) : null };
      }
      return undefined;
    },
    candidateByKey(taskId, key) {
      const row = db.prepare('SELECT candidate_id, action_id, idempotency_key, base_head, fragment_sha256, snapshot_id, status, document_json, revision_id, report_json FROM cdsl_candidates WHERE task_id = ? AND idempotency_key = ?').get(taskId, key);
      return row as CandidateRow | undefined;
    },
    unappendedLedger(taskId) {
      const rows = taskId
        ? db.prepare('SELECT task_id, sequence, line FROM cdsl_ledger WHERE appended = 0 AND task_id = ? ORDER BY sequence').all(taskId)
        : db.prepare('SELECT task_id, sequence, line FROM cdsl_ledger WHERE appended = 0 ORDER BY task_id, sequence').all();
      return rows as { task_id: string; sequence: number; line: string }[];
    },
    markLedgerAppended(taskId, upTo) {
      db.prepare('UPDATE cdsl_ledger SET appended = 1 WHERE task_id = ? AND sequence <= ?').run(taskId, upTo);
    },
    ledger(taskId) {
      return (db.prepare('SELECT line FROM cdsl_ledger WHERE task_id = ? ORDER BY sequence').all(taskId) as { line: string }[]).map((r) => parse(r.line));
    },
    pendingOutbox(limit) {
      return (db.prepare('SELECT seq, task_id, type, payload_json FROM cdsl_outbox WHERE dispatched_at IS NULL ORDER BY seq LIMIT ?').all(limit) as { seq: number; task_id: string; type: string; payload_json: string }[]).map((r) => ({
        seq: r.seq, task_id: r.task_id, type: r.type, payload: parse(r.payload_json),
      }));
    },
    markOutboxDispatched(seq) {
      db.prepare('UPDATE cdsl_outbox SET dispatched_at = ? WHERE seq = ? AND dispatched_at IS NULL').run(clock.now().toISOString(), seq);
    },
    usage(taskId) {
      return (db.prepare('SELECT role, tool, usage_json, at, call_id, status FROM cdsl_usage WHERE task_id = ? ORDER BY usage_id').all(taskId) as { role: 'author' | 'reviewer'; tool: string; usage_json: string; at: string; call_id: string | null; status: UsageRow['status'] }[]).map((r) => ({
        role: r.role, tool: r.tool, usage: parse(r.usage_json), at: r.at, ...(r.call_id ? { call_id: r.call_id } : {}), ...(r.status ? { status: r.status } : {}),
      }));
    },
    chargeCallStarted(taskId, expectedVersion, row, charged) {
      const at = clock.now().toISOString();
      try {
        immediate(db, () => {
          const current = readTask(taskId);
          if (current.state_version !== expectedVersion) {
            throw protocolError(ProtocolErrorCode.staleWorkingHead, 'The task changed since it was read; read the current facts again.', { task_id: taskId, expected_version: expectedVersion, current_version: current.state_version });
          }
          db.prepare('INSERT INTO cdsl_usage (task_id, role, tool, usage_json, at, call_id, status) VALUES (?, ?, ?, ?, ?, ?, ?)').run(taskId, row.role, row.tool, json(row.usage), at, row.call_id, 'started');
          db.prepare('UPDATE cdsl_tasks SET record_json = ? WHERE task_id = ?').run(json({ ...current, usage: charged }), taskId);
        });
      } catch (error) {
        throw storageFailure(error);
      }
    },
    settleStartedCalls(taskId) {
      return db.prepare("UPDATE cdsl_usage SET status = 'interrupted' WHERE task_id = ? AND status = 'started'").run(taskId).changes;
    },
    invocations(taskId) {
      const rows = db.prepare("SELECT at, role, tool, status, CASE WHEN status = 'rejected' THEN json_extract(result_json, '$.code') END AS code, raw_sha256, raw_redacted, field_errors_json FROM cdsl_invocations WHERE task_id = ? ORDER BY at, rowid").all(taskId) as (Omit<InvocationAudit, 'field_errors'> & { field_errors_json: string | null })[];
      return rows.map(({ field_errors_json: errors, ...row }) => ({ ...row, field_errors: errors ? parse(errors) : null }));
    },
    acquireLease(taskId, owner, ttlMs, replaceOwner) {
      return immediate(db, () => {
        const now = clock.now().getTime();
        const held = db.prepare('SELECT owner, expires_at FROM cdsl_task_leases WHERE task_id = ?').get(taskId) as { owner: string; expires_at: number } | undefined;
        if (held && held.owner !== owner && held.owner !== replaceOwner && held.expires_at > now) return held;
        db.prepare('INSERT OR REPLACE INTO cdsl_task_leases (task_id, owner, heartbeat_at, expires_at) VALUES (?, ?, ?, ?)').run(taskId, owner, now, now + ttlMs);
        return null;
      });
    },
    releaseLease(taskId, owner) {
      db.prepare('DELETE FROM cdsl_task_leases WHERE task_id = ? AND owner = ?').run(taskId, owner);
    },
    saveCapabilities(providerId, model, passed, report) {
      db.prepare('INSERT OR REPLACE INTO cdsl_model_capabilities (provider_id, model, passed, report_json, checked_at) VALUES (?, ?, ?, ?, ?)').run(providerId, model, passed ? 1 : 0, json(report), clock.now().toISOString());
    },
    capabilities(providerId, model) {
      const row = db.prepare('SELECT passed, report_json, checked_at FROM cdsl_model_capabilities WHERE provider_id = ? AND model = ?').get(providerId, model) as { passed: number; report_json: string; checked_at: string } | undefined;
      return row ? { passed: row.passed === 1, report: parse(row.report_json), checked_at: row.checked_at } : undefined;
    },
  };
}

/** Fresh ids for runs and invocations (random: they never need to be reproducible). */
export const newId = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

import type { AppErrorData } from '../../../../../shared/errors';
import type { BudgetBasis, TaskBudget, TaskUsage } from './budgets';
import type { ProgressCounters } from './progress';
import type { FailureReason, TaskState } from './states';
import type { NextAction } from './tools/actionTools';
import type { RequirementItem } from './tools/requirementTools';

/** One paragraph of the user's request, cited by requirements as evidence. */
export interface SourceEntry {
  source_id: string;
  text: string;
}

export interface DraftItem {
  draft_id: string;
  item: RequirementItem;
}

/** A frozen acceptance claim with its server-assigned id. */
export interface ContractClaim {
  claim_id: string;
  requirement_id: string;
  claim_kind: string;
  expected: Record<string, unknown>;
  deterministic: boolean;
}

export interface ContractRequirement {
  requirement_id: string;
  draft_id: string;
  statement: string;
  source_ids: string[];
  assumptions: string[];
  claim_ids: string[];
}

/** requirements-contract.json: frozen after the independent review, never edited. */
export interface RequirementsContract {
  schema_version: 'cad.requirements-contract.v1';
  task_id: string;
  requirements: ContractRequirement[];
  claims: ContractClaim[];
}

/** The transactional pending action (seed §4.4): never reconstructed from the ledger. */
export interface PendingAction {
  action_id: string;
  working_head: string;
  proposal: NextAction;
  /** Set once the author read the operation contract (the fragment tool needs it). */
  contract_hash: string | null;
  idempotency_key: string;
}

/** What the author inspected at the current head (the fragment schema binds to it). */
export interface Observation {
  head: string;
  snapshot_id: string;
}

export interface TaskRecord {
  task_id: string;
  state: TaskState;
  state_version: number;
  working_head: string;
  /** Accepted revision the head points at (null before the first accepted action). */
  head_revision: string | null;
  head_counter: number;
  resume_state: TaskState | null;
  failure_reason: FailureReason | null;
  last_error: AppErrorData | null;
  question: { reason_code: string; text: string } | null;
  answer: string | null;
  request: string;
  author_model: string;
  reviewer_model: string;
  budget: TaskBudget;
  /**
   * Limits the user set explicitly (at creation or by a resume raise): kept as given when the
   * budget is fitted to the frozen contract. Absent on tasks created before budgets were fitted
   * (their budget is never refitted).
   */
  budget_overrides?: Partial<TaskBudget>;
  /** What the budget was fitted to (null/absent until the contract is frozen). */
  budget_basis?: BudgetBasis | null;
  usage: TaskUsage;
  counters: ProgressCounters;
  from_task: string | null;
  from_revision: string | null;
  run_id: string;
  /** Structured results of read-only tools at the current head (reset when the head moves). */
  notes: TurnNotes;
  /** Last evidence references (errors, rejected candidates) a geometry conclusion may cite. */
  evidence: { ref: string; summary: string }[];
  created_at: string;
  updated_at: string;
}

/** Head tokens are opaque to authors; they change whenever the checkpoint changes. */
export const headToken = (counter: number, revision: string | null): string => `head_${String(counter).padStart(4, '0')}_${revision ?? 'empty'}`;

/** Server-assigned ids (authors never invent ids). */
export const seqId = (prefix: string, n: number): string => `${prefix}_${String(n).padStart(3, '0')}`;

/** Compact facts the author gathered at one head; only these are replayed into the next prompt. */
export interface TurnNotes {
  head: string;
  topology?: { kind: string; snapshot_id: string; entries: Record<string, unknown>[] };
  contract?: { atomic_id: string; contract_hash: string; summary: string };
  /** Closed `expected` schemas of the claim kinds the author read (get_claim_schema), by kind. */
  claim_schemas?: Record<string, unknown>;
  measure?: Record<string, unknown>;
  render?: Record<string, unknown>;
  last_tool?: { tool: string; outcome: string; message?: string };
}

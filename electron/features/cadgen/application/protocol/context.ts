import type { NextAction } from '../../domain/protocol/tools/actionTools';
import type { TaskSnapshot } from './ports';
import { uncoveredSources } from './requirementHandlers';
import type { ClaimResult } from '../evaluateClaims';

/** How many recent ledger events the author sees as a digest (never the whole ledger). */
const RECENT_ACTIONS = 3;

const AUTHOR_ROLE = [
  'You are the author in the CadSight CDSL v3 protocol: you build a mechanical part one verified atomic action at a time.',
  'Each turn call exactly one offered tool; no plans, Markdown or CDSL outside tools. Copy ids, heads, tokens and hashes exactly from the facts; the server assigns every id.',
];

/** The author's standing instructions per phase: a drafting turn is not sent the modelling rules, nor the reverse. */
const AUTHOR_SYSTEM = {
  drafting: [...AUTHOR_ROLE, 'Drafting: read the expected schema of the claim kinds you use (get_claim_schema), cite source ids, state assumptions, give machine-checkable acceptance claims, then finalize.'].join('\n'),
  modelling: [
    ...AUTHOR_ROLE,
    'Modelling: propose the next single action (its operation contract is read with it), inspect the topology when the operation needs selectors, then submit the fragment.',
    'A claim is pending while its geometry does not exist yet and fails once it exists and is wrong.',
  ].join('\n'),
};

const REVIEWER_SYSTEM = [
  'You are the independent reviewer in the CadSight CDSL v3 protocol. You did not write this part.',
  'Judge only from the facts, the CDSL and the drawings given. Deterministic claim results are computed by the server and cannot be overridden by you: copy their status (or write unverified); a different status refuses the review.',
  'Call exactly one of the offered tools with one row per requirement source or per claim as its schema demands.',
].join('\n');

/**
 * Claims with their status on the head. No `requirement_id`: the requirements beside them list
 * their claim_ids already, and these facts are re-sent every turn.
 */
function claimSummary(snapshot: TaskSnapshot, results: ClaimResult[] | undefined): Record<string, unknown>[] {
  return (snapshot.contract?.contract.claims ?? []).map((c) => {
    const r = results?.find((x) => x.id === c.claim_id);
    return { claim_id: c.claim_id, kind: c.claim_kind, expected: c.expected, status: r?.status ?? 'pending', ...(r && r.status !== 'pass' ? { detail: r.message } : {}) };
  });
}

/** Requirements with their coverage on the head revision: complete when every claim passes. */
function coverage(snapshot: TaskSnapshot): Record<string, unknown>[] {
  const results = snapshot.task.head_revision ? snapshot.claimResults.get(snapshot.task.head_revision) : undefined;
  return (snapshot.contract?.contract.requirements ?? []).map((r) => ({
    requirement_id: r.requirement_id,
    statement: r.statement,
    claim_ids: r.claim_ids,
    status: r.claim_ids.every((id) => results?.find((x) => x.id === id)?.status === 'pass') ? 'complete' : 'open',
  }));
}

/**
 * A pending proposal as facts show it: without its working_head, which is the task's (a pending
 * action is dropped when the head moves) and named once beside it.
 */
export function proposalFacts(proposal: NextAction): Omit<NextAction, 'working_head'> {
  const { working_head: _sameHead, ...rest } = proposal;
  return rest;
}

function recentActions(ledger: Record<string, unknown>[]): Record<string, unknown>[] {
  return ledger
    .filter((e) => e.event === 'accepted' || e.event === 'review_rejected' || e.event === 'candidate_failed' || e.event === 'rolled_back')
    .slice(-RECENT_ACTIONS)
    .map((e) => ({ event: e.event, action_id: e.action_id, atomic_id: e.actual_atomic_id ?? e.atomic_id, revision_id: e.revision_id, summary: e.summary }));
}

/**
 * The author's context for one turn (seed §7): frozen contract summary with coverage, compact
 * measurements, the pending action or a digest of recent actions, the last relevant error. The
 * selector token bank appears only after inspect_topology; the operation schema only as the
 * fragment tool's own parameters once the contract is read (with the proposal); claim kinds' expected
 * schemas only after get_claim_schema. Operation names are not repeated here: the
 * propose_next_action enum carries them. Drafting turns see the source paragraphs instead of
 * the contract. Keys run from what changes least (sources, the frozen requirements) to what
 * changes every turn (heads, notes, the last error), so successive requests share a long prefix.
 */
export function authorContext(snapshot: TaskSnapshot, ledger: Record<string, unknown>[], measurements: unknown): { system: string; user: string } {
  const { task } = snapshot;
  const notes = task.notes.head === task.working_head ? task.notes : { head: task.working_head };
  const facts: Record<string, unknown> = {};
  if (task.state === 'DRAFTING_REQUIREMENTS') {
    facts.sources = snapshot.sources;
    // Read schemas matter while drafting tools are offered; the finalize turn does without them.
    if (notes.claim_schemas && (snapshot.drafts.length === 0 || task.last_error !== null || uncoveredSources(snapshot).length > 0)) facts.claim_schemas = notes.claim_schemas;
    facts.drafts = snapshot.drafts.map((d) => ({ draft_id: d.draft_id, ...d.item }));
    Object.assign(facts, { state: task.state, working_head: task.working_head, head_revision: task.head_revision });
    if (task.answer) facts.user_answer = task.answer;
  } else {
    facts.requirements = coverage(snapshot);
    facts.claims = claimSummary(snapshot, task.head_revision ? snapshot.claimResults.get(task.head_revision) : undefined);
    Object.assign(facts, { state: task.state, working_head: task.working_head, head_revision: task.head_revision });
    if (measurements) facts.measurements = measurements;
    if (snapshot.pending) facts.pending_action = { action_id: snapshot.pending.action_id, ...proposalFacts(snapshot.pending.proposal), contract_read: snapshot.pending.contract_hash !== null };
    else facts.recent_actions = recentActions(ledger);
    if (task.answer) facts.user_answer = task.answer;
  }
  if (notes.topology) facts.topology = notes.topology;
  if (notes.contract) facts.contract = notes.contract;
  if (notes.measure) facts.measure = notes.measure;
  if (notes.render) facts.render = notes.render;
  if (notes.last_tool) facts.last_tool = notes.last_tool;
  if (task.last_error) facts.last_error = { code: task.last_error.code, message: task.last_error.message, ...(task.last_error.data?.issues ? { issues: task.last_error.data.issues } : {}) };
  if (task.evidence.length > 0) facts.evidence = task.evidence;
  return { system: task.state === 'DRAFTING_REQUIREMENTS' ? AUTHOR_SYSTEM.drafting : AUTHOR_SYSTEM.modelling, user: JSON.stringify(facts) };
}

/** The reviewer's context: what is under review plus read-only claim results; drafting sources for requirement and final reviews. */
export function reviewerContext(snapshot: TaskSnapshot, subject: Record<string, unknown>, claimResults?: ClaimResult[]): { system: string; user: string } {
  const facts: Record<string, unknown> = { state: snapshot.task.state, ...subject };
  if (snapshot.task.state === 'REVIEWING_REQUIREMENTS' || snapshot.task.state === 'FINAL_VALIDATION') facts.sources = snapshot.sources;
  if (snapshot.task.state === 'REVIEWING_REQUIREMENTS') facts.drafts = snapshot.drafts.map((d) => ({ draft_id: d.draft_id, ...d.item }));
  else {
    facts.requirements = coverage(snapshot);
    facts.claims = claimSummary(snapshot, claimResults);
  }
  return { system: REVIEWER_SYSTEM, user: JSON.stringify(facts) };
}

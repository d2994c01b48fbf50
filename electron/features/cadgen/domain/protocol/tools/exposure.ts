import type { JsonSchema } from '../../contracts/schemaParts';
import type { TaskState } from '../states';
import { completeTaskTool, geometryConclusionTool, inspectTopologyTool, measureTool, operationContractTool, proposeNextActionTool, renderViewTool, rollbackTool } from './actionTools';
import { submitFragmentTool } from './fragmentTool';
import { claimSchemaTool, draftBatchTool, finalizeDraftTool, patchDraftTool, reviewRequirementsTool } from './requirementTools';
import type { ClaimKindSchema } from './requirementTools';
import { reviewCandidateTool, reviewFinalTool } from './reviewTools';
import type { ExposedTool, SchemaCheck } from './toolKit';

/** The facts one turn's tools are narrowed to (a projection of the persisted task). */
export interface TurnView {
  state: TaskState;
  head: string;
  /** True once the head points at a built revision (observation tools need geometry). */
  hasRevision: boolean;
  sourceIds: readonly string[];
  draftIds: readonly string[];
  /**
   * Drafting is complete: drafts exist, every source is cited and no rejection or review feedback
   * is open. Then finalizing is the only useful call; otherwise finalizing would be refused.
   */
  draftComplete: boolean;
  requirementIds: readonly string[];
  claimIds: readonly string[];
  /** Claims judged by the independent reviewer (visual): the final review gives each a verdict with evidence. */
  visualClaimIds: readonly string[];
  claimKinds: readonly ClaimKindSchema[];
  /** The author has read claim kinds' expected schemas (get_claim_schema) while drafting. */
  claimSchemasRead: boolean;
  operations: readonly string[];
  pending: { atomicId: string; contractHash: string | null; needsSnapshot: boolean } | null;
  /** Snapshot id the author inspected at the current head (null: not inspected yet). */
  inspectedSnapshotId: string | null;
  /** Dynamic fragment schema of the pending operation, bound to the inspected snapshot. */
  fragmentSchema: JsonSchema | null;
  evidenceRefs: readonly string[];
  checkpointTokens: readonly string[];
  /** The completion gate (all deterministic claims pass, nothing pending) is open. */
  completable: boolean;
  /**
   * Off the happy path: evidence of a refused candidate, an open error, a final review's repair
   * card or a claim failing on the head. Only then are diagnosis (reading the head, concluding on
   * evidence) and rollback worth their schemas in a turn.
   */
  repairing: boolean;
  candidate: { id: string; head: string } | null;
  revisionId: string | null;
}

/** Which model speaks in a state (null: the server works, nobody is asked). */
export function speakerOf(state: TaskState): 'author' | 'reviewer' | null {
  if (state === 'DRAFTING_REQUIREMENTS' || state === 'AWAITING_ACTION' || state === 'ACTION_PENDING') return 'author';
  if (state === 'REVIEWING_REQUIREMENTS' || state === 'CANDIDATE_REVIEW' || state === 'FINAL_VALIDATION') return 'reviewer';
  return null;
}

function observationTools(view: TurnView, operations: readonly string[]): ExposedTool[] {
  const tools: ExposedTool[] = [operationContractTool({ operations }) as ExposedTool];
  if (view.hasRevision) tools.push(inspectTopologyTool({ head: view.head }) as ExposedTool, measureTool({ head: view.head }) as ExposedTool, renderViewTool({ head: view.head }) as ExposedTool);
  return tools;
}

/**
 * The tools exposed for `view`, derived from state, pending action and snapshot only — never
 * from prompt text. Tools whose dynamic enum would be empty are not exposed at all, and a tool
 * is offered only where calling it can succeed and help (no drafting schemas on the finalize
 * turn). Order serves prompt caching: the tools whose schemas change least come first, the one
 * bound to the newest facts (a pending action's fragment, the draft ids) last.
 */
export function exposedTools(view: TurnView, check: SchemaCheck): ExposedTool[] {
  const requirementFacts = { sourceIds: view.sourceIds, claimKinds: view.claimKinds, check };
  switch (view.state) {
    case 'DRAFTING_REQUIREMENTS': {
      if (view.draftComplete) return [finalizeDraftTool() as ExposedTool];
      // Claims cannot be written before their kinds' schemas are read: the first drafting turn
      // offers only the read, with the kind vocabulary in its description.
      if (!view.claimSchemasRead && view.draftIds.length === 0) return [claimSchemaTool({ claimKinds: view.claimKinds, describeKinds: true }) as ExposedTool];
      const tools: ExposedTool[] = [claimSchemaTool({ claimKinds: view.claimKinds, describeKinds: false }) as ExposedTool, draftBatchTool(requirementFacts) as ExposedTool];
      if (view.draftIds.length > 0) tools.push(patchDraftTool({ ...requirementFacts, draftIds: view.draftIds }) as ExposedTool);
      return tools;
    }
    case 'REVIEWING_REQUIREMENTS':
      return view.draftIds.length > 0 ? [reviewRequirementsTool({ sourceIds: view.sourceIds, draftIds: view.draftIds }) as ExposedTool] : [];
    case 'AWAITING_ACTION': {
      // Seed §4.3: with no pending action the author only proposes (or completes once the gate is open).
      const propose = proposeNextActionTool({ head: view.head, requirementIds: view.requirementIds, operations: view.operations }) as ExposedTool;
      if (!view.repairing) return view.completable ? [propose, completeTaskTool() as ExposedTool] : [propose];
      const [contract, ...facts] = observationTools(view, view.operations);
      const tools: ExposedTool[] = [contract!, propose, ...facts];
      if (view.evidenceRefs.length > 0) tools.push(geometryConclusionTool({ head: view.head, evidenceRefs: view.evidenceRefs }) as ExposedTool);
      if (view.checkpointTokens.length > 0) tools.push(rollbackTool({ head: view.head, checkpointTokens: view.checkpointTokens }) as ExposedTool);
      if (view.completable) tools.push(completeTaskTool() as ExposedTool);
      return tools;
    }
    case 'ACTION_PENDING': {
      const pending = view.pending;
      if (!pending) return [];
      // Pending: the contract is worth reading until it is read (a proposal reads it), the token
      // bank only for an operation that selects or references geometry; drawings do not help fill a fragment.
      const tools: ExposedTool[] = pending.contractHash === null ? [operationContractTool({ operations: [pending.atomicId] }) as ExposedTool] : [];
      if (view.hasRevision && pending.needsSnapshot) tools.push(inspectTopologyTool({ head: view.head }) as ExposedTool);
      // Measuring repeats the facts' measurements and the topology listing; it earns its schema while repairing.
      if (view.hasRevision && view.repairing) tools.push(measureTool({ head: view.head }) as ExposedTool);
      if (view.repairing && view.checkpointTokens.length > 0) tools.push(rollbackTool({ head: view.head, checkpointTokens: view.checkpointTokens }) as ExposedTool);
      const snapshotReady = !pending.needsSnapshot || view.inspectedSnapshotId !== null;
      if (pending.contractHash !== null && view.fragmentSchema !== null && snapshotReady) {
        tools.push(submitFragmentTool({ head: view.head, contractHash: pending.contractHash, snapshotId: view.inspectedSnapshotId, fragmentSchema: view.fragmentSchema, check }) as ExposedTool);
      }
      return tools;
    }
    case 'CANDIDATE_REVIEW':
      return view.candidate && view.claimIds.length > 0 ? [reviewCandidateTool({ candidateId: view.candidate.id, head: view.candidate.head, claimIds: view.claimIds }) as ExposedTool] : [];
    case 'FINAL_VALIDATION':
      return view.revisionId && view.claimIds.length > 0 ? [reviewFinalTool({ revisionId: view.revisionId, claimIds: view.claimIds, visualClaimIds: view.visualClaimIds }) as ExposedTool] : [];
    default:
      return [];
  }
}

/** Binding fields the server checks for equality before canonical validation (stale, not malformed). */
export const BINDING_FIELDS = ['working_head', 'contract_hash', 'snapshot_id', 'candidate_id', 'revision_id'] as const;

/**
 * When a parsed call names a binding (head, contract, snapshot, candidate, revision) that is
 * well-formed but no longer current, it is STALE_WORKING_HEAD rather than a format error.
 * Returns the stale fields (empty = bindings current or absent).
 */
export function staleBindings(value: unknown, tool: ExposedTool): string[] {
  if (value === null || typeof value !== 'object') return [];
  const properties = (tool.parameters.properties ?? {}) as Record<string, { const?: unknown }>;
  const stale: string[] = [];
  for (const field of BINDING_FIELDS) {
    const expected = properties[field]?.const;
    const actual = (value as Record<string, unknown>)[field];
    if (typeof expected === 'string' && typeof actual === 'string' && actual !== expected) stale.push(field);
  }
  return stale;
}

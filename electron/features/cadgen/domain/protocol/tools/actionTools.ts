import { z } from 'zod';
import { emptyArgs, userQuestion } from './requirementTools';
import { idEnum, shortText, zodTool } from './toolKit';
import type { ExposedTool } from './toolKit';

/** propose_next_action (seed §4.3): one atomic action bound to the current head. */
export function proposeNextActionTool(facts: { head: string; requirementIds: readonly string[]; operations: readonly string[] }) {
  const schema = z
    .object({
      working_head: z.literal(facts.head),
      intent: shortText(360),
      // The gate this choice sets travels with the one tool that makes it, not in every turn's system text.
      requirement_ids: z
        .array(idEnum(facts.requirementIds))
        .min(1)
        .max(5)
        .describe('only the requirements this action makes or completes: the candidate is rejected when a claim of one of them fails, when a claim that passed before stops passing, or when a global invariant fails'),
      atomic_id: idEnum(facts.operations),
      expected_change: shortText(360),
    })
    .strict();
  return zodTool('propose_next_action', 'author', 'Choose the next single atomic CAD action (no parameters, no CDSL: the fragment follows, in the shape of the operation contract read with it).', schema, {
    extraChecks: (v) => (new Set(v.requirement_ids).size !== v.requirement_ids.length ? [{ path: '/requirement_ids', message: 'duplicate requirement id' }] : []),
  });
}
export interface NextAction {
  working_head: string;
  intent: string;
  requirement_ids: string[];
  atomic_id: string;
  expected_change: string;
}

export const CONCLUSION_DECISIONS = ['return_to_action_selection', 'rollback', 'waiting_for_user'] as const;

/** record_geometry_conclusion: a diagnosis that cites evidence; it never carries CDSL. */
export function geometryConclusionTool(facts: { head: string; evidenceRefs: readonly string[] }) {
  const schema = z
    .object({
      working_head: z.literal(facts.head),
      evidence_refs: z.array(idEnum(facts.evidenceRefs)).min(1).max(5),
      root_cause: shortText(360),
      decision: z.enum(CONCLUSION_DECISIONS),
      corrective_intent: z.string().max(360),
      question: userQuestion.optional(),
    })
    .strict();
  return zodTool('record_geometry_conclusion', 'author', 'Record a diagnosis of the last failure and decide: back to action selection, rollback, or ask the user.', schema, {
    extraChecks: (v) => (v.decision === 'waiting_for_user' && !v.question ? [{ path: '/question', message: 'waiting_for_user needs a question' }] : []),
  });
}

/** rollback_checkpoint: move the working head back to an accepted ancestor revision. */
export function rollbackTool(facts: { head: string; checkpointTokens: readonly string[] }) {
  const schema = z.object({ working_head: z.literal(facts.head), checkpoint_token: idEnum(facts.checkpointTokens), reason: shortText(240) }).strict();
  return zodTool('rollback_checkpoint', 'author', 'Return the working head to an earlier accepted revision of this task.', schema);
}

/** complete_task: no arguments; only exposed when the completion gate is open. */
export function completeTaskTool(): ExposedTool<Record<string, never>> {
  return zodTool('complete_task', 'author', 'Request final validation of the current revision. Takes no arguments.', emptyArgs as z.ZodType<Record<string, never>>);
}

export const VIEW_NAMES = ['front', 'top', 'right', 'iso'] as const;
export const MEASURE_QUANTITIES = ['summary', 'bbox', 'volume', 'bores', 'planar_faces'] as const;

/** Read-only fact tools, all bound to the current head (listed last: it is the one value that changes between checkpoints, so a cached prefix reaches further). */
export function inspectTopologyTool(facts: { head: string }) {
  const schema = z.object({ kind: z.enum(['face', 'edge', 'feature']), limit: z.number().int().min(1).max(200), working_head: z.literal(facts.head) }).strict();
  return zodTool('inspect_topology', 'author', 'List faces, edges or features of the head revision with their selector tokens.', schema);
}

export function operationContractTool(facts: { operations: readonly string[] }) {
  const schema = z.object({ atomic_id: idEnum(facts.operations) }).strict();
  return zodTool('get_cdsl_operation_contract', 'author', 'Read one operation\'s contract (its fragment schema, selectors).', schema);
}

export function measureTool(facts: { head: string }) {
  const schema = z.object({ quantity: z.enum(MEASURE_QUANTITIES), working_head: z.literal(facts.head) }).strict();
  return zodTool('measure', 'author', 'Measure the head revision.', schema);
}

export function renderViewTool(facts: { head: string }) {
  const schema = z.object({ view: z.enum(VIEW_NAMES), working_head: z.literal(facts.head) }).strict();
  return zodTool('render_view', 'author', 'Render the head revision\'s hidden-line drawing from one view.', schema);
}

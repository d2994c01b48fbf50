import type { ToolName } from '../../domain/protocol/tools/toolKit';
import { handleCompleteTask, handleGeometryConclusion, handleProposeNextAction, handleRollback } from './actionHandlers';
import { handleReviewCandidate, handleSubmitFragment } from './candidateHandlers';
import { handleReviewFinal } from './finalHandlers';
import type { Handler } from './handlerTypes';
import { handleClaimSchema, handleInspectTopology, handleMeasure, handleOperationContract, handleRenderView } from './observationHandlers';
import { handleDraftBatch, handleFinalizeDraft, handlePatchDraft, handleReviewRequirements } from './requirementHandlers';

/** One handler per tool; the coordinator dispatches validated calls here and nowhere else. */
export const HANDLERS: Record<ToolName, Handler<never>> = {
  submit_requirements_draft_batch: handleDraftBatch,
  patch_requirements_draft: handlePatchDraft,
  finalize_requirements_draft: handleFinalizeDraft,
  get_claim_schema: handleClaimSchema,
  review_requirements: handleReviewRequirements,
  propose_next_action: handleProposeNextAction,
  inspect_topology: handleInspectTopology,
  get_cdsl_operation_contract: handleOperationContract,
  measure: handleMeasure,
  render_view: handleRenderView,
  submit_cdsl_fragment: handleSubmitFragment,
  record_geometry_conclusion: handleGeometryConclusion,
  rollback_checkpoint: handleRollback,
  review_candidate: handleReviewCandidate,
  complete_task: handleCompleteTask,
  review_final: handleReviewFinal,
};

import { closedObject } from './schemaParts';
import type { OperationContract } from './types';

/** Through cut: the runtime derives the cut length from the body so it always exits. */
export const extrudeCutThroughContract: OperationContract = {
  atomic_id: 'extrude_cut_through',
  contract_version: '3.0',
  summary: 'Cut a closed sketch profile through the whole body along the normal, against it, or both ways.',
  fragment_shape: { sketch: 'required', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    direction: { type: 'string', enum: ['normal', 'reverse', 'both'], description: 'cut direction relative to the workplane normal' },
  }),
  selector_policy: [],
  reference_policy: { mode: 'none' },
  server_injected_paths: [],
  semantic_preflight: ['workplane_valid', 'profile_closed_simple', 'body_exists', 'cut_reaches_body', 'through_exit_distance', 'cut_tool_meets_body'],
  candidate_verifiers: ['through_opening', 'hole_set', 'through_cylindrical_bore', 'single_connected_body', 'volume_mm3'],
  body_effect: 'cut',
};

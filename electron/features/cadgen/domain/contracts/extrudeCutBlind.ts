import { closedObject, length } from './schemaParts';
import type { OperationContract } from './types';

/** Pocket: cut a profile to a fixed depth. */
export const extrudeCutBlindContract: OperationContract = {
  atomic_id: 'extrude_cut_blind',
  contract_version: '3.0',
  summary: 'Cut a closed sketch profile into the body to a fixed depth.',
  fragment_shape: { sketch: 'required', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    distance_mm: length('cut depth along the cut direction'),
    reverse: { type: 'boolean', description: 'false cuts along the workplane normal, true against it' },
  }),
  selector_policy: [],
  reference_policy: { mode: 'none' },
  server_injected_paths: [],
  semantic_preflight: ['workplane_valid', 'profile_closed_simple', 'body_exists', 'cut_reaches_body', 'cut_tool_meets_body'],
  candidate_verifiers: ['pocket', 'hole_set', 'volume_mm3', 'single_connected_body', 'coplanar'],
  body_effect: 'cut',
};

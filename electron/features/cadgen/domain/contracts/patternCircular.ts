import { axis3, closedObject, token } from './schemaParts';
import type { OperationContract } from './types';

/** Circular pattern of an earlier add/cut feature's tool body around an axis. */
export const patternCircularContract: OperationContract = {
  atomic_id: 'pattern_circular',
  contract_version: '3.0',
  summary: 'Repeat an earlier extrude/revolve/cut/hole feature around an axis (count includes the original; 360° spreads evenly).',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    source_feature_token: token('feature', 'feature to repeat'),
    axis: axis3,
    count: { type: 'integer', minimum: 2, maximum: 360 },
    total_angle_deg: { type: 'number', exclusiveMinimum: 0, maximum: 360, description: '360 spaces count instances evenly; less spans first to last' },
  }),
  selector_policy: [],
  reference_policy: { mode: 'feature_token', slot: 'source_feature_token', allowed_atomic_ids: ['extrude', 'revolve', 'extrude_cut_blind', 'extrude_cut_through', 'hole'], inject_path: 'params.source' },
  server_injected_paths: ['params.source'],
  semantic_preflight: ['body_exists', 'direction_nonzero', 'replay_instances_meet_body'],
  candidate_verifiers: ['circular_hole_pattern', 'volume_mm3'],
  body_effect: 'replay',
};

import { closedObject, length, token, vec3 } from './schemaParts';
import type { OperationContract } from './types';

/** Linear pattern of an earlier add/cut feature's tool body. */
export const patternLinearContract: OperationContract = {
  atomic_id: 'pattern_linear',
  contract_version: '3.0',
  summary: 'Repeat an earlier extrude/revolve/cut/hole feature along a direction (count includes the original).',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    source_feature_token: token('feature', 'feature to repeat'),
    direction: vec3,
    spacing_mm: length('distance between instances'),
    count: { type: 'integer', minimum: 2, maximum: 100 },
  }),
  selector_policy: [],
  reference_policy: { mode: 'feature_token', slot: 'source_feature_token', allowed_atomic_ids: ['extrude', 'revolve', 'extrude_cut_blind', 'extrude_cut_through', 'hole'], inject_path: 'params.source' },
  server_injected_paths: ['params.source'],
  semantic_preflight: ['body_exists', 'direction_nonzero', 'replay_instances_meet_body'],
  candidate_verifiers: ['solid_count_equals', 'volume_mm3', 'cylindrical_bore'],
  body_effect: 'replay',
};

import { closedObject, plane3, token } from './schemaParts';
import type { OperationContract } from './types';

/** Mirror an earlier add/cut feature's tool body across a plane. */
export const mirrorContract: OperationContract = {
  atomic_id: 'mirror',
  contract_version: '3.0',
  summary: 'Mirror an earlier extrude/revolve/cut/hole feature across a plane.',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({ source_feature_token: token('feature', 'feature to mirror'), plane: plane3 }),
  selector_policy: [],
  reference_policy: { mode: 'feature_token', slot: 'source_feature_token', allowed_atomic_ids: ['extrude', 'revolve', 'extrude_cut_blind', 'extrude_cut_through', 'hole'], inject_path: 'params.source' },
  server_injected_paths: ['params.source'],
  semantic_preflight: ['body_exists', 'direction_nonzero', 'replay_instances_meet_body'],
  candidate_verifiers: ['volume_mm3', 'coplanar'],
  body_effect: 'replay',
};

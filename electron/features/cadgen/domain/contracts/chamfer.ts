import { closedObject, length, tokenList } from './schemaParts';
import type { OperationContract } from './types';

/** Equal-distance chamfer on selected edges. */
export const chamferContract: OperationContract = {
  atomic_id: 'chamfer',
  contract_version: '3.0',
  summary: 'Bevel the selected edges with an equal-distance chamfer.',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'required' },
  author_params_schema: closedObject({ edge_tokens: tokenList('edge', 1, 64, 'edges to bevel'), distance_mm: length('chamfer distance', 1_000) }),
  selector_policy: [{ slot: 'edge_tokens', token_kind: 'edge', min_items: 1, max_items: 64, inject_path: 'params.edges' }],
  reference_policy: { mode: 'none' },
  server_injected_paths: ['params.edges'],
  semantic_preflight: ['body_exists'],
  candidate_verifiers: ['chamfer_size', 'single_connected_body', 'volume_mm3'],
  body_effect: 'modify',
};

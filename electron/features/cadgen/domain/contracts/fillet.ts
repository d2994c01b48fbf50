import { closedObject, length, tokenList } from './schemaParts';
import type { OperationContract } from './types';

/** Constant-radius fillet on selected edges. */
export const filletContract: OperationContract = {
  atomic_id: 'fillet',
  contract_version: '3.0',
  summary: 'Round the selected edges with a constant radius.',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'required' },
  author_params_schema: closedObject({ edge_tokens: tokenList('edge', 1, 64, 'edges to round'), radius_mm: length('fillet radius', 1_000) }),
  selector_policy: [{ slot: 'edge_tokens', token_kind: 'edge', min_items: 1, max_items: 64, inject_path: 'params.edges' }],
  reference_policy: { mode: 'none' },
  server_injected_paths: ['params.edges'],
  semantic_preflight: ['body_exists'],
  candidate_verifiers: ['fillet_radius', 'single_connected_body', 'volume_mm3'],
  body_effect: 'modify',
};

import { closedObject, length, tokenList } from './schemaParts';
import type { OperationContract } from './types';

/** Hollow the body, removing the selected faces (openings). */
export const shellContract: OperationContract = {
  atomic_id: 'shell',
  contract_version: '3.0',
  summary: 'Hollow the body to a wall thickness, removing the selected faces.',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'required' },
  author_params_schema: closedObject({ face_tokens: tokenList('face', 1, 16, 'faces removed (openings)'), thickness_mm: length('wall thickness (inwards)', 1_000) }),
  selector_policy: [{ slot: 'face_tokens', token_kind: 'face', min_items: 1, max_items: 16, inject_path: 'params.faces' }],
  reference_policy: { mode: 'none' },
  server_injected_paths: ['params.faces'],
  semantic_preflight: ['body_exists', 'shell_thickness_fits'],
  candidate_verifiers: ['wall_thickness', 'single_connected_body', 'volume_mm3', 'bbox_dimension_mm'],
  body_effect: 'modify',
};

import { closedObject, length, token, vec3 } from './schemaParts';
import type { OperationContract } from './types';

/** Holes at one or more positions on one planar host face, all in one feature. */
export const holeContract: OperationContract = {
  atomic_id: 'hole',
  contract_version: '3.0',
  summary: 'Drill one or more identical holes (simple, counterbore, countersink) into one planar host face.',
  fragment_shape: { sketch: 'forbidden', params: 'required_object', selector_tokens: 'required' },
  author_params_schema: closedObject({
    host_face_token: token('face', 'planar face the holes start on; holes go against its outward normal'),
    positions_mm: { type: 'array', minItems: 1, maxItems: 64, items: vec3, description: 'hole centres on the host face (model coordinates)' },
    diameter_mm: length('hole diameter', 2_000),
    extent: {
      oneOf: [closedObject({ kind: { const: 'blind' }, depth_mm: length('depth of the cylindrical part') }), closedObject({ kind: { const: 'through_all' } })],
    },
    style: {
      oneOf: [
        closedObject({ kind: { const: 'simple' } }),
        closedObject({ kind: { const: 'counterbore' }, diameter_mm: length('counterbore diameter (> hole diameter)', 2_000), depth_mm: length('counterbore depth') }),
        closedObject({
          kind: { const: 'countersink' },
          diameter_mm: length('countersink diameter at the face (> hole diameter)', 2_000),
          angle_deg: { type: 'number', minimum: 60, maximum: 120, description: 'included cone angle' },
        }),
      ],
    },
  }),
  selector_policy: [{ slot: 'host_face_token', token_kind: 'face', min_items: 1, max_items: 1, inject_path: 'params.host_face' }],
  reference_policy: { mode: 'none' },
  server_injected_paths: ['params.host_face'],
  semantic_preflight: ['body_exists', 'host_face_planar', 'hole_positions_on_host_face', 'hole_style_dimensions', 'through_exit_distance'],
  candidate_verifiers: ['hole_set', 'linear_hole_pattern', 'rectangular_hole_layout', 'hole_centre_distance', 'cylindrical_bore', 'through_cylindrical_bore', 'circular_hole_pattern'],
  body_effect: 'cut',
};

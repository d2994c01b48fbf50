import { bodyMode, closedObject, length } from './schemaParts';
import type { OperationContract } from './types';

/** Boss / new body: extrude a closed profile along the workplane normal. */
export const extrudeContract: OperationContract = {
  atomic_id: 'extrude',
  contract_version: '3.0',
  summary: 'Extrude a closed sketch profile (one-sided or symmetric) to add material or a new body.',
  fragment_shape: { sketch: 'required', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    extent: {
      oneOf: [
        closedObject({ kind: { const: 'one_sided' }, distance_mm: length('extrusion length'), reverse: { type: 'boolean', description: 'true extrudes against the workplane normal' } }),
        closedObject({ kind: { const: 'symmetric' }, distance_mm: length('total length, split evenly on both sides of the workplane') }),
      ],
    },
    body: bodyMode,
  }),
  selector_policy: [],
  reference_policy: { mode: 'none' },
  server_injected_paths: [],
  semantic_preflight: ['workplane_valid', 'profile_closed_simple', 'join_needs_body', 'join_tool_meets_body'],
  candidate_verifiers: ['solid_count_equals', 'bbox_dimension_mm', 'volume_mm3'],
  body_effect: 'add',
};

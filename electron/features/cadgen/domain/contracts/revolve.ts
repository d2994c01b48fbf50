import { axis3, bodyMode, closedObject } from './schemaParts';
import type { OperationContract } from './types';

/** Revolve a closed profile around an axis lying in the sketch plane. */
export const revolveContract: OperationContract = {
  atomic_id: 'revolve',
  contract_version: '3.0',
  summary: 'Revolve a closed sketch profile around an axis in the sketch plane by an angle.',
  fragment_shape: { sketch: 'required', params: 'required_object', selector_tokens: 'forbidden' },
  author_params_schema: closedObject({
    axis: axis3,
    angle_deg: { type: 'number', exclusiveMinimum: 0, maximum: 360, description: 'revolution angle' },
    body: bodyMode,
  }),
  selector_policy: [],
  reference_policy: { mode: 'none' },
  server_injected_paths: [],
  semantic_preflight: ['workplane_valid', 'profile_closed_simple', 'revolve_axis_in_sketch_plane', 'revolve_profile_one_side', 'join_needs_body', 'join_tool_meets_body'],
  candidate_verifiers: ['solid_count_equals', 'volume_mm3', 'coaxial', 'cylindrical_bore'],
  body_effect: 'add',
};

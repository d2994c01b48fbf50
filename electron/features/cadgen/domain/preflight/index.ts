import { cdslError, CdslErrorCode } from '../errors';
import { bodyExists, cutReachesBody, directionNonzero, joinNeedsBody, shellThicknessFits, throughExitDistance } from './bodyChecks';
import { holePositionsOnHostFace, holeStyleDimensions, hostFacePlanar } from './holeChecks';
import { profileClosedSimple, revolveAxisInSketchPlane, revolveProfileOneSide, workplaneValid } from './sketchChecks';
import { cutToolMeetsBody, joinToolMeetsBody, replayInstancesMeetBody } from './effectChecks';
import type { PreflightCheck, PreflightInput } from './types';

export type { PreflightInput, PreflightProblem, ResolvedRefs } from './types';
export { exitDistance, cutDirections } from './bodyChecks';
export { postBuildEffectProblem } from './effectChecks';
export type { VolumeEffect } from './effectChecks';

/** Named semantic preflights; contracts list names, the integrity check proves they exist. */
export const PREFLIGHT_CHECKS: Readonly<Record<string, PreflightCheck>> = {
  workplane_valid: workplaneValid,
  profile_closed_simple: profileClosedSimple,
  revolve_axis_in_sketch_plane: revolveAxisInSketchPlane,
  revolve_profile_one_side: revolveProfileOneSide,
  join_needs_body: joinNeedsBody,
  body_exists: bodyExists,
  cut_reaches_body: cutReachesBody,
  through_exit_distance: throughExitDistance,
  host_face_planar: hostFacePlanar,
  hole_positions_on_host_face: holePositionsOnHostFace,
  hole_style_dimensions: holeStyleDimensions,
  shell_thickness_fits: shellThicknessFits,
  direction_nonzero: directionNonzero,
  cut_tool_meets_body: cutToolMeetsBody,
  join_tool_meets_body: joinToolMeetsBody,
  replay_instances_meet_body: replayInstancesMeetBody,
};

/**
 * Runs the named checks in order; the first failure throws (nothing built): CDSL_PRECONDITION_FAILED,
 * or the check's own code (CDSL_FEATURE_NO_EFFECT / CDSL_FEATURE_DISJOINT) with data.stage "preflight".
 */
export function runPreflights(names: readonly string[], input: PreflightInput): void {
  for (const name of names) {
    const check = PREFLIGHT_CHECKS[name];
    if (!check) throw cdslError(CdslErrorCode.contractUnknown, `preflight "${name}" is not registered`, { preflight: name });
    const problem = check(input);
    if (!problem) continue;
    const [code, message, data] = typeof problem === 'string' ? [CdslErrorCode.preconditionFailed, problem, {}] : [problem.code, problem.message, problem.data ?? {}];
    throw cdslError(code, `${input.feature.id} (${input.feature.atomic_id}): ${message}`, { ...data, feature_id: input.feature.id, check: name, stage: 'preflight' });
  }
}

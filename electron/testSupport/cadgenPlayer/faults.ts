import type { PlayerFaults } from './player';

/** Offline failure scripts (issue 9): each names the faults and the end state it must reach. */
export const FAULT_SCENARIOS: Record<string, { fixture: string; faults: PlayerFaults; expect: { state: string; failure_reason?: string; code?: string } }> = {
  format_rejection: { fixture: 'plate_with_holes', faults: { malformedProposalOnce: true }, expect: { state: 'COMPLETED' } },
  // The author calls a tool the turn does not offer (drafts before reading any claim schema): refused as a format error, nothing stored.
  unoffered_tool: { fixture: 'plate_with_holes', faults: { unofferedToolOnce: true }, expect: { state: 'COMPLETED' } },
  stale_head: { fixture: 'plate_with_holes', faults: { staleHeadOnce: true }, expect: { state: 'COMPLETED' } },
  selector_not_found: { fixture: 'plate_with_holes', faults: { unknownSelectorOnce: true }, expect: { state: 'COMPLETED' } },
  precondition_rejection: {
    fixture: 'plate_with_holes',
    faults: { firstFragmentOverride: { sketch: { workplane: { origin: [0, 0, 0], normal: [0, 0, 1], x_dir: [1, 0, 0] }, profile: { outer: { type: 'polyline', start: [0, 0], segments: [{ type: 'line', to: [10, 0] }, { type: 'line', to: [20, 0] }] } } }, feature: { atomic_id: 'extrude', params: { extent: { kind: 'one_sided', distance_mm: 8, reverse: false }, body: 'new_body' } } } },
    expect: { state: 'COMPLETED' },
  },
  reviewer_service_failure: { fixture: 'plate_with_holes', faults: { reviewerDown: true }, expect: { state: 'WAITING_RETRY', code: 'CDSL_REVIEW_SERVICE_UNAVAILABLE' } },
  // Not an eval scenario (eval.ts lists those): for trying a WAITING_FOR_USER question by hand in the app.
  user_question: { fixture: 'flange', faults: { askUserOnce: { reason_code: 'missing_dimension', text: 'The request gives no thickness: is the flange 12 mm thick?', draftIndex: 0 } }, expect: { state: 'WAITING_FOR_USER' } },
  transport_exhaustion: { fixture: 'plate_with_holes', faults: { authorDown: true }, expect: { state: 'WAITING_RETRY', code: 'CDSL_AUTHOR_TRANSPORT_UNAVAILABLE' } },
  // A 45 mm chamfer on a 20 mm block passes the schema and preflight; OpenCascade refuses it.
  candidate_build_failure: { fixture: 'chamfered_block', faults: { paramsOverrideOnce: { atomic_id: 'chamfer', params: { distance_mm: 45 } } }, expect: { state: 'COMPLETED' } },
  // A lenient reviewer accepts every candidate while the author drills the holes Ø8 instead of Ø6 once: the server rejects the candidate (claim fails), the author repairs it.
  lenient_wrong_hole_diameter: { fixture: 'plate_with_holes', faults: { reviewerAlwaysAccepts: true, paramsOverrideOnce: { atomic_id: 'hole', params: { diameter_mm: 8 } } }, expect: { state: 'COMPLETED' } },
  // The same lenient reviewer while the first plate is 10 mm thick instead of 8.
  lenient_wrong_thickness: { fixture: 'plate_with_holes', faults: { reviewerAlwaysAccepts: true, paramsOverrideOnce: { atomic_id: 'extrude', params: { extent: { kind: 'one_sided', distance_mm: 10, reverse: false } } } }, expect: { state: 'COMPLETED' } },
  // A reviewer that rates every claim pass: its reviews are refused (typed), never stored, until the review tool's format limit.
  reviewer_claims_all_pass: { fixture: 'plate_with_holes', faults: { reviewerClaimsAllPass: true }, expect: { state: 'FAILED', failure_reason: 'FAILED_AUTHOR_FORMAT' } },
  // A reviewer that rejects every candidate: the identical fragment is refused without a build, and the task stops with NO_PROGRESS_LIMIT.
  reject_forever: { fixture: 'plate_with_holes', faults: { reviewerAlwaysRejects: true }, expect: { state: 'FAILED', failure_reason: 'NO_PROGRESS_LIMIT' } },
  // The Ø40 bore is placed once off the Ø120 disc (inside its bbox): preflight refuses it, no build is spent.
  hole_off_material: { fixture: 'flange', faults: { paramsOverrideOnce: { atomic_id: 'hole', params: { positions_mm: [[55, 55, 12]] } } }, expect: { state: 'COMPLETED' } },
  // The final reviewer asks for a repair; the author calls complete_task again for the same revision (refused), rolls back and redoes the last action.
  // The same provider id + model name at another base URL whose model answers every conformance probe in prose: re-probed, the task refuses to start.
  swapped_endpoint: { fixture: 'plate_with_holes', faults: { nonConformant: true }, expect: { state: 'DRAFTING_REQUIREMENTS', code: 'CDSL_MODEL_STRUCTURED_OUTPUT_UNSUPPORTED' } },
  // A perfect author on a task started with too few author turns: it stops BUDGET_EXHAUSTED, and a resume with a larger budget (the eval's raise) completes it.
  budget_exhausted_resumed: { fixture: 'plate_with_holes', faults: {}, expect: { state: 'COMPLETED' } },
  complete_twice: { fixture: 'plate_with_holes', faults: { finalRepairOnce: true, completeAgainOnce: true }, expect: { state: 'COMPLETED' } },
};

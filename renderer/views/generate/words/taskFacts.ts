import type { GenClaimView, GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { en, type MessageKey } from '../../../i18n/messages';
import type { DraftReview } from '../../../store/generationFacts';
import type { GenTaskEvent, GenTaskState } from '../../../store/generationSlice';
import type { useT } from '../../../store/StoreContext';

/** Every task state, in protocol order (the filter's options). */
export const GEN_STATES: readonly GenTaskState[] = [
  'DRAFTING_REQUIREMENTS', 'REVIEWING_REQUIREMENTS', 'AWAITING_ACTION', 'ACTION_PENDING', 'CANDIDATE_BUILDING',
  'CANDIDATE_REVIEW', 'FINAL_VALIDATION', 'WAITING_RETRY', 'WAITING_FOR_USER', 'COMPLETED', 'FAILED',
];

/** States in which the engine works on its own (a background run is, or should be, going). */
export function isWorking(state: GenTaskState): boolean {
  return !['WAITING_RETRY', 'WAITING_FOR_USER', 'COMPLETED', 'FAILED'].includes(state);
}

/** The first line of a request, cut at `max` characters. */
export function excerpt(text: string, max = 90): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const FACE_TOKEN = /^fc_[0-9a-f]{8,64}$/;

/** The face selector tokens anywhere in a claim's evidence (the faces the verifier matched). */
export function faceTokensOf(evidence: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') {
      if (FACE_TOKEN.test(value)) found.add(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item, depth + 1);
  };
  walk(evidence, 0);
  return [...found];
}

const compact = (value: unknown): string => {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/\.?0+$/, '');
  if (Array.isArray(value)) return `[${value.map(compact).join(', ')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${k}: ${compact(v)}`).join(', ')}}`;
  return String(value);
};

/** Measured vs expected for a claim: the evidence's `measured*` fields against the claim's expectation. */
export function measuredVsExpected(claim: GenClaimView): { measured: string | null; expected: string } {
  const evidence = claim.evidence ?? {};
  const measured = Object.entries(evidence).filter(([key]) => key.startsWith('measured'));
  return {
    measured: measured.length > 0 ? measured.map(([key, value]) => `${key.replace(/^measured_?/, '') || 'value'} ${compact(value)}`).join('; ') : null,
    expected: compact(claim.expected),
  };
}

/** What the engine is doing now, derived from the state and the latest event of the task. */
export type GenPhase = 'drafting' | 'reviewing_requirements' | 'choosing_action' | 'writing_fragment' | 'building' | 'reviewing' | 'final_validation' | 'waiting_user' | 'waiting_retry' | 'completed' | 'failed';

const PHASE_OF_STATE: Record<GenTaskState, GenPhase> = {
  DRAFTING_REQUIREMENTS: 'drafting',
  REVIEWING_REQUIREMENTS: 'reviewing_requirements',
  AWAITING_ACTION: 'choosing_action',
  ACTION_PENDING: 'writing_fragment',
  CANDIDATE_BUILDING: 'building',
  CANDIDATE_REVIEW: 'reviewing',
  FINAL_VALIDATION: 'final_validation',
  WAITING_FOR_USER: 'waiting_user',
  WAITING_RETRY: 'waiting_retry',
  COMPLETED: 'completed',
  FAILED: 'failed',
};

export function phaseOf(state: GenTaskState, lastEvent: GenTaskEvent | null): GenPhase {
  // An event newer than the detail (the refetch is debounced) already tells the next phase.
  if (lastEvent?.type === 'candidate_building' && isWorking(state)) return 'building';
  return PHASE_OF_STATE[state];
}

/** Claim counts of the shown revision. */
export function claimCounts(detail: GenTaskDetail): { pass: number; total: number } {
  const claims = detail.contract?.requirements.flatMap((r) => r.claims) ?? [];
  return { pass: claims.filter((c) => c.status === 'pass').length, total: claims.length };
}

/** An engine code (`prefix` + value) in the user's language; a value this catalog does not know is shown as sent (it is data). */
export function knownLabel(t: ReturnType<typeof useT>, prefix: string, value: string): string {
  const key = `${prefix}${value}`;
  return key in en ? t(key as MessageKey) : value;
}

/** A reviewer verdict in the user's language. */
export const verdictLabel = (t: ReturnType<typeof useT>, verdict: string): string => knownLabel(t, 'gen.verdict.', verdict);

/** The reviewer's per-draft verdicts from genShow (the latest requirements review, any verdict). */
export function draftReviewOf(detail: GenTaskDetail): DraftReview | null {
  const review = detail.requirementsReview;
  return review ? { verdict: review.verdict, items: new Map(review.items.map((i) => [i.draftId, { verdict: i.verdict, note: i.note }])) } : null;
}

/**
 * The `completed` ledger fact counts every passing final check, the contract's claims plus the
 * server's STEP re-import check (which completion requires); the card counts only the former.
 */
export function completedClaims(claimsPassed: number): number {
  return Math.max(0, claimsPassed - 1);
}

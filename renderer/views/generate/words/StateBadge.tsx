import type { GenTaskState } from '../../../store/generationSlice';
import { useT } from '../../../store/StoreContext';

const TONE: Record<GenTaskState, string> = {
  DRAFTING_REQUIREMENTS: 'running', REVIEWING_REQUIREMENTS: 'running', AWAITING_ACTION: 'running', ACTION_PENDING: 'running', CANDIDATE_BUILDING: 'running',
  CANDIDATE_REVIEW: 'running', FINAL_VALIDATION: 'running', WAITING_RETRY: 'pending', WAITING_FOR_USER: 'pending', COMPLETED: 'pass', FAILED: 'fail',
};

/** A task state as a coloured, translated badge. */
export function StateBadge({ state }: { state: GenTaskState }) {
  const t = useT();
  return (
    <span className={`cdsl-badge gen-state gen-state-${TONE[state]}`} data-state={state}>
      {t(`gen.state.${state}`)}
    </span>
  );
}

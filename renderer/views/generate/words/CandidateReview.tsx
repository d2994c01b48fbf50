import { useState } from 'react';
import { parseCandidateReview, type CandidateReview as Review } from '../../../store/generationFacts';
import { useApp, useT } from '../../../store/StoreContext';
import { verdictLabel } from './taskFacts';

/** The reviewer's own verdict on an accepted candidate, fetched from the task folder when asked for. */
export function CandidateReview({ taskId, path, seq }: { taskId: string; path: string; seq: number }) {
  const t = useT();
  const fetchFile = useApp((s) => s.fetchGenFile);
  const [review, setReview] = useState<Review | 'unreadable' | null>(null);
  const load = async (): Promise<void> => {
    const bytes = await fetchFile(taskId, path);
    // A fetch error is already in the banner; a document that is not a review says so here.
    if (bytes) setReview(parseCandidateReview(bytes) ?? 'unreadable');
  };
  if (review === null) {
    return (
      <button type="button" className="btn-ghost btn-small" onClick={() => void load()} data-testid={`gen-ledger-review-${seq}`}>
        {t('gen.ledger.showReview')}
      </button>
    );
  }
  if (review === 'unreadable') return <span className="warning">{t('gen.ledger.reviewUnreadable')}</span>;
  return (
    <span className="gen-candidate-review" data-testid={`gen-ledger-review-${seq}`} data-verdict={review.verdict}>
      <span className={`cdsl-badge cdsl-badge-${review.verdict === 'accept' ? 'pass' : 'fail'}`}>{t('gen.ledger.reviewVerdict', { verdict: verdictLabel(t, review.verdict) })}</span>
      {review.evidence.map((e) => (
        <span key={e} className="muted">
          {e}
        </span>
      ))}
      {review.issues.map((i) => (
        <span key={i} className="warning">
          {i}
        </span>
      ))}
    </span>
  );
}

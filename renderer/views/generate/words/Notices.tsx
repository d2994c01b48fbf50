import { useState } from 'react';
import type { AppErrorData } from '../../../../shared/errors';
import { MAX_GEN_ANSWER_CHARS, type GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import type { GenTaskEvent } from '../../../store/generationSlice';
import { useApp, useT } from '../../../store/StoreContext';
import { BudgetRaise } from './BudgetRaise';
import { ErrorLine } from './ErrorLine';
import { claimCounts, knownLabel, phaseOf } from './taskFacts';

/** WAITING_FOR_USER: the question of whoever asked it (author or reviewer) with its reason, an answer box and Send. */
export function QuestionCard({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const answer = useApp((s) => s.answerGenTask);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<AppErrorData | null>(null);
  const question = detail.task.question;
  if (detail.task.state !== 'WAITING_FOR_USER' || !question) return null;
  const send = async (): Promise<void> => {
    setSending(true);
    setError(null);
    try {
      const failure = await answer(text.trim());
      if (failure) setError(failure);
      else setText('');
    } finally {
      setSending(false);
    }
  };
  return (
    <section className="card gen-notice gen-notice-question" data-testid="gen-question" data-reason={question.reasonCode} data-asked-by={question.askedBy}>
      <h2>{question.askedBy === 'reviewer' ? t('gen.question.titleReviewer') : t('gen.question.titleAuthor')}</h2>
      <p className="gen-question-text">{question.text}</p>
      <p className="muted">
        {t('gen.question.reason')} {knownLabel(t, 'gen.question.code.', question.reasonCode)} <span className="banner-code">{question.reasonCode}</span>
      </p>
      <textarea rows={3} value={text} maxLength={MAX_GEN_ANSWER_CHARS} placeholder={t('gen.question.placeholder')} onChange={(e) => setText(e.target.value)} data-testid="gen-answer-input" />
      <div className="cdsl-actions">
        <button type="button" className="btn-primary" disabled={sending || text.trim() === ''} onClick={() => void send()} data-testid="gen-answer-send">
          {sending ? t('gen.question.sending') : t('gen.question.send')}
        </button>
      </div>
      {error && <ErrorLine error={error} testId="gen-answer-error" />}
    </section>
  );
}

/** WAITING_RETRY (cause + Resume) and FAILED (reason + typed error; the last good revision stays below). */
export function StateNotices({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const resume = useApp((s) => s.resumeGenTask);
  const { task } = detail;
  if (task.state === 'WAITING_RETRY') {
    return (
      <section className="card gen-notice gen-notice-retry" data-testid="gen-retry-notice">
        <h2>{t('gen.retry.title')}</h2>
        <p>{t('gen.retry.body')}</p>
        {task.lastError && <ErrorLine error={task.lastError} prefix={t('gen.retry.cause')} />}
        <button type="button" className="btn-primary" data-testid="gen-resume" onClick={() => void resume(task.taskId)}>
          {t('gen.action.resume')}
        </button>
      </section>
    );
  }
  if (task.state === 'FAILED') {
    return (
      <section className="card gen-notice gen-notice-failed" data-testid="gen-failed-notice" data-reason={task.failureReason ?? ''}>
        <h2>{task.failureReason === 'CANCELLED' ? t('gen.failed.cancelled') : t('gen.failed.title')}</h2>
        {task.failureReason && (
          <p>
            {t('gen.failed.reason')} <span className="banner-code">{task.failureReason}</span>
          </p>
        )}
        {task.lastError && <ErrorLine error={task.lastError} />}
        {task.failureReason === 'BUDGET_EXHAUSTED' && <BudgetRaise detail={detail} />}
        <p className="muted">{task.headRevision ? t('gen.failed.lastGood', { revision: task.headRevision }) : t('gen.failed.nothingBuilt')}</p>
      </section>
    );
  }
  return null;
}

/** What the engine is doing now, the built candidate the reviewer is judging, and the one action it works on (intent, requirements, operation, expected change). */
export function ActivityCard({ detail, lastEvent }: { detail: GenTaskDetail; lastEvent: GenTaskEvent | null }) {
  const t = useT();
  const phase = phaseOf(detail.task.state, lastEvent?.taskId === detail.task.taskId ? lastEvent : null);
  const { pass, total } = claimCounts(detail);
  const turns = detail.task.usage.authorTurns ?? 0;
  const maxTurns = detail.budget.maxAuthorTurns ?? 0;
  const pending = detail.pending;
  const candidate = detail.candidate ?? null;
  return (
    <section className="card gen-activity-card">
      <div className="gen-activity" data-testid="gen-activity" data-phase={phase}>
        <strong>{t(`gen.phase.${phase}`)}</strong>
        {total > 0 && <span className="muted">{t('gen.activity.claims', { pass, total })}</span>}
        <span className="muted">{t('gen.activity.revisions', { count: detail.revisions.length })}</span>
        {maxTurns > 0 && (
          <span className="gen-activity-budget muted">
            {t('gen.activity.turns', { turns, max: maxTurns })}
            <progress max={maxTurns} value={Math.min(turns, maxTurns)} />
          </span>
        )}
      </div>
      {candidate && (
        <p className="gen-candidate" data-testid="gen-candidate" data-candidate-id={candidate.candidateId}>
          {t('gen.candidate.waiting', { candidate: candidate.candidateId, revision: candidate.revisionId, action: candidate.actionId })}{' '}
          <span className="muted">{t('gen.activity.claims', { pass: candidate.claims.filter((c) => c.status === 'pass').length, total: candidate.claims.length })}</span>
        </p>
      )}
      {pending && (
        <div className="gen-pending" data-testid="gen-pending-action" data-action-id={pending.actionId}>
          <h2>{t('gen.pending.title')}</h2>
          <dl className="gen-facts">
            <dt>{t('gen.pending.intent')}</dt>
            <dd>{pending.intent}</dd>
            <dt>{t('gen.pending.operation')}</dt>
            <dd className="mono">{pending.operation}</dd>
            <dt>{t('gen.pending.requirements')}</dt>
            <dd className="mono">{pending.requirementIds.join(', ')}</dd>
            <dt>{t('gen.pending.expected')}</dt>
            <dd>{pending.expectedChange}</dd>
          </dl>
        </div>
      )}
    </section>
  );
}

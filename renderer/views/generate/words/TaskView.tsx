import { useMemo, useState } from 'react';
import { useApp, useT } from '../../../store/StoreContext';
import { ChangePart } from './ChangePart';
import { ErrorLine } from './ErrorLine';
import { LedgerTimeline } from './Ledger';
import { ActivityCard, QuestionCard, StateNotices } from './Notices';
import { Contract, Drafts, SourceRequest } from './Requirements';
import { Revisions } from './Revisions';
import { StateBadge } from './StateBadge';
import { TaskDrawing } from './TaskDrawing';
import { draftReviewOf, excerpt, faceTokensOf, isWorking } from './taskFacts';
import { Usage } from './Usage';

/** One generation task, live: notices, what the engine does now, requirements and claims, revisions, history, usage. */
export function TaskView() {
  const t = useT();
  const open = useApp((s) => s.genOpen);
  const cancel = useApp((s) => s.cancelGenTask);
  const [selectedClaim, setSelectedClaim] = useState<string | null>(null);
  const detail = open?.detail ?? null;
  const highlight = useMemo(() => {
    const claim = detail?.contract?.requirements.flatMap((r) => r.claims).find((c) => c.claimId === selectedClaim);
    return claim ? faceTokensOf(claim.evidence) : [];
  }, [detail, selectedClaim]);
  if (!open) return null;
  if (!detail) {
    return (
      <section className="gen-task" data-testid="gen-task-view" data-task-id={open.taskId} data-state="">
        {open.error ? <ErrorLine error={open.error} testId="gen-task-error" /> : <p className="muted">{t('gen.task.loading')}</p>}
      </section>
    );
  }
  const { task } = detail;
  const cancellable = isWorking(task.state) || task.state === 'WAITING_RETRY' || task.state === 'WAITING_FOR_USER';
  return (
    <section className="gen-task" data-testid="gen-task-view" data-task-id={task.taskId} data-state={task.state}>
      <div className="card gen-task-head">
        <div className="cdsl-card-head">
          <h2 className="gen-task-title">{excerpt(task.request, 120)}</h2>
          <span className="gen-task-head-actions">
            {cancellable && (
              <button type="button" className="btn-ghost btn-small" onClick={() => void cancel(task.taskId)} data-testid="gen-cancel">
                {t('gen.action.cancel')}
              </button>
            )}
            <StateBadge state={task.state} />
          </span>
        </div>
        <p className="muted">
          {t('gen.task.meta', { id: task.taskId, author: task.authorModel, reviewer: task.reviewerModel })}
          {task.fromTask && ` · ${t('gen.task.from', { task: task.fromTask, revision: task.fromRevision ?? '' })}`}
        </p>
        <ChangePart detail={detail} />
        <TaskDrawing detail={detail} />
        {open.error && <ErrorLine error={open.error} testId="gen-task-error" />}
      </div>
      <QuestionCard detail={detail} />
      <StateNotices detail={detail} />
      <ActivityCard detail={detail} lastEvent={open.lastEvent} />
      <div className="gen-task-grid">
        <div className="gen-task-col">
          <SourceRequest detail={detail} />
          <Drafts detail={detail} review={draftReviewOf(detail) ?? open.review} />
          <Contract detail={detail} selectedClaim={selectedClaim} onSelectClaim={setSelectedClaim} />
        </div>
        <div className="gen-task-col">
          <Revisions detail={detail} highlight={highlight} />
        </div>
      </div>
      <LedgerTimeline taskId={task.taskId} ledger={open.ledger} />
      <Usage detail={detail} />
    </section>
  );
}

import type { GenTaskSummary } from '../../../../shared/ipc/contracts/generation';
import { formatDateTime } from '../../../i18n/messages';
import { useApp, useT } from '../../../store/StoreContext';
import { StateBadge } from './StateBadge';
import { excerpt, GEN_STATES, isWorking } from './taskFacts';

const tokensOf = (task: GenTaskSummary): number => (task.usage.promptTokens ?? 0) + (task.usage.completionTokens ?? 0);

/** Every task (newest first) with its state, request, models, revisions, tokens and last change; filter, resume, cancel. */
export function TaskList() {
  const t = useT();
  const tasks = useApp((s) => s.genTasks);
  const filter = useApp((s) => s.genFilter);
  const setFilter = useApp((s) => s.setGenFilter);
  const openId = useApp((s) => s.genOpen?.taskId ?? null);
  const open = useApp((s) => s.openGenTask);
  const resume = useApp((s) => s.resumeGenTask);
  const cancel = useApp((s) => s.cancelGenTask);
  const locale = useApp((s) => s.locale);
  return (
    <section className="card gen-list" data-testid="gen-task-list">
      <div className="cdsl-card-head">
        <h2>{t('gen.list.title')}</h2>
        <button type="button" className="btn-ghost btn-small" data-testid="gen-new" disabled={openId === null} onClick={() => void open(null)}>
          {t('gen.list.new')}
        </button>
      </div>
      <label className="gen-field gen-filter">
        {t('gen.list.filter')}
        <select value={filter} onChange={(e) => void setFilter(e.target.value as typeof filter)} data-testid="gen-task-filter">
          <option value="">{t('gen.list.all')}</option>
          {GEN_STATES.map((s) => (
            <option key={s} value={s}>
              {t(`gen.state.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {tasks !== null && tasks.length === 0 && <p className="muted">{filter ? t('gen.list.noneInState') : t('gen.list.none')}</p>}
      <ul className="gen-rows">
        {(tasks ?? []).map((task) => (
          <li key={task.taskId} className={`gen-row${task.taskId === openId ? ' active' : ''}`} data-testid={`gen-task-row-${task.taskId}`} data-state={task.state}>
            <button type="button" className="gen-row-open" onClick={() => void open(task.taskId)}>
              <span className="gen-row-head">
                <StateBadge state={task.state} />
                <span className="muted">{formatDateTime(locale, task.updatedAt)}</span>
              </span>
              <span className="gen-row-request">{excerpt(task.request)}</span>
              <span className="muted gen-row-meta">
                {t('gen.list.meta', { author: task.authorModel, reviewer: task.reviewerModel, revisions: task.revisionCount, tokens: tokensOf(task).toLocaleString(locale) })}
              </span>
            </button>
            {(task.state === 'WAITING_RETRY' || isWorking(task.state) || task.state === 'WAITING_FOR_USER') && (
              <span className="gen-row-actions">
                {task.state === 'WAITING_RETRY' && (
                  <button type="button" className="btn-ghost btn-small" data-testid={`gen-row-resume-${task.taskId}`} onClick={() => void resume(task.taskId)}>
                    {t('gen.action.resume')}
                  </button>
                )}
                <button type="button" className="btn-ghost btn-small" data-testid={`gen-row-cancel-${task.taskId}`} onClick={() => void cancel(task.taskId)}>
                  {t('gen.action.cancel')}
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

import { useState } from 'react';
import type { AppErrorData } from '../../../../shared/errors';
import { MAX_GEN_REQUEST_CHARS, type GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { useApp, useT } from '../../../store/StoreContext';
import { ErrorLine } from './ErrorLine';

/** "Change this part": a new task that starts from the shown revision of a completed task with a change request. */
export function ChangePart({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const start = useApp((s) => s.startGenTask);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<AppErrorData | null>(null);
  const revision = detail.shownRevision;
  if (detail.task.state !== 'COMPLETED' || !revision) return null;
  const submit = async (): Promise<void> => {
    setStarting(true);
    setError(null);
    try {
      // The new task keeps this task's models (the host resolves them the same way as for a new part).
      const failure = await start({ request: text.trim(), fromTask: detail.task.taskId, revision, author: detail.task.authorModel, reviewer: detail.task.reviewerModel });
      if (failure) setError(failure);
    } finally {
      setStarting(false);
    }
  };
  return (
    <div className="gen-change">
      {!open ? (
        <button type="button" className="btn-primary" onClick={() => setOpen(true)} data-testid="gen-change-part">
          {t('gen.change.open')}
        </button>
      ) : (
        <>
          <h3>{t('gen.change.title', { revision })}</h3>
          <textarea rows={3} value={text} maxLength={MAX_GEN_REQUEST_CHARS} placeholder={t('gen.change.placeholder')} onChange={(e) => setText(e.target.value)} data-testid="gen-change-request" />
          <div className="cdsl-actions">
            <button type="button" className="btn-primary" disabled={starting || text.trim() === ''} onClick={() => void submit()} data-testid="gen-change-start">
              {starting ? t('gen.form.starting') : t('gen.change.start')}
            </button>
            <button type="button" className="btn-ghost" onClick={() => setOpen(false)}>
              {t('gen.change.close')}
            </button>
          </div>
          {error && <ErrorLine error={error} testId="gen-change-error" />}
        </>
      )}
    </div>
  );
}

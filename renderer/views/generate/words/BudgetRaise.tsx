import { useState } from 'react';
import type { AppErrorData } from '../../../../shared/errors';
import type { GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import { useApp, useT } from '../../../store/StoreContext';
import { ErrorLine } from './ErrorLine';

/** Time is entered in minutes, like the new-part limits; everything else as a count. */
const shown = (field: string, value: number): number => (field === 'maxWallMs' ? Math.ceil(value / 60_000) : value);

/**
 * FAILED as BUDGET_EXHAUSTED: what the exhausted limit allowed and what was spent, a larger value
 * (suggested: half as much again) and Continue, which resumes the task with it where it stopped.
 * Refusals (CDSL_BUDGET_INVALID) show under the field.
 */
export function BudgetRaise({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  const raise = useApp((s) => s.raiseGenBudget);
  const exhausted = detail.budgetExhausted ?? null;
  const [value, setValue] = useState(exhausted ? String(shown(exhausted.field, Math.ceil(Math.max(exhausted.max, exhausted.spent) * 1.5))) : '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<AppErrorData | null>(null);
  if (!exhausted) return null;
  const { field } = exhausted;
  const parsed = Number(value);
  const valid = Number.isSafeInteger(parsed) && parsed > 0;
  const send = async (): Promise<void> => {
    setSending(true);
    setError(null);
    try {
      setError(await raise(detail.task.taskId, { [field]: field === 'maxWallMs' ? parsed * 60_000 : parsed }));
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="gen-budget-raise" data-testid="gen-budget-raise" data-limit={exhausted.limit}>
      <p>{t('gen.budgetRaise.body', { spent: shown(field, exhausted.spent), max: shown(field, exhausted.max) })}</p>
      <label className="gen-field">
        {t(`gen.budget.${field}`)}
        <input type="number" min={1} step={1} value={value} onChange={(e) => setValue(e.target.value)} data-testid="gen-budget-raise-input" />
      </label>
      <div className="cdsl-actions">
        <button type="button" className="btn-primary" disabled={sending || !valid} onClick={() => void send()} data-testid="gen-budget-raise-continue">
          {sending ? t('gen.budgetRaise.sending') : t('gen.budgetRaise.continue')}
        </button>
      </div>
      {error && <ErrorLine error={error} testId="gen-budget-raise-error" />}
    </div>
  );
}

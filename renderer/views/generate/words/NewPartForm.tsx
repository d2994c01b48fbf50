import { useEffect, useMemo, useState } from 'react';
import type { AppErrorData } from '../../../../shared/errors';
import { genBudgetSchema, MAX_GEN_REQUEST_CHARS } from '../../../../shared/ipc/contracts/generation';
import { useApp, useT } from '../../../store/StoreContext';
import { ErrorLine } from './ErrorLine';
import { modelOptions, type ModelOption } from '../../modelOptions';
import { ModelPicker } from './ModelPicker';

/** The optional limits offered in the form (the rest keep the engine defaults). */
const BUDGET_FIELDS = ['maxAuthorTurns', 'maxReviewerCalls', 'maxCandidateBuilds', 'maxPromptTokens', 'maxWallMs'] as const;
type BudgetField = (typeof BUDGET_FIELDS)[number];

const refOf = (role: { providerId: string; model: string } | null | undefined): string => (role ? `${role.providerId}/${role.model}` : '');

/** Every model of the Settings providers as "provider/model", plus the role's model when it comes from elsewhere (environment). */
function useModelOptions(): { options: ModelOption[]; author: string; reviewer: string } {
  const settings = useApp((s) => s.settings);
  return useMemo(() => {
    const options: ModelOption[] = modelOptions(settings?.providers ?? [], '/');
    const author = refOf(settings?.roles.author);
    const reviewer = refOf(settings?.roles.reviewer);
    for (const role of [author, reviewer]) if (role && !options.some((o) => o.value === role)) options.unshift({ value: role, label: role });
    return { options, author, reviewer };
  }, [settings]);
}

/** "New part": the request in words, author and reviewer models with their conformance, optional budgets, Start. */
export function NewPartForm() {
  const t = useT();
  const start = useApp((s) => s.startGenTask);
  const loadStatus = useApp((s) => s.loadGenModelStatus);
  const { options, author: roleAuthor, reviewer: roleReviewer } = useModelOptions();
  const [request, setRequest] = useState('');
  const [author, setAuthor] = useState(roleAuthor);
  const [reviewer, setReviewer] = useState(roleReviewer);
  const [budgets, setBudgets] = useState<Partial<Record<BudgetField, string>>>({});
  const [error, setError] = useState<AppErrorData | null>(null);
  const [starting, setStarting] = useState(false);

  // Settings may arrive after the form: adopt the role defaults until the user picks.
  useEffect(() => setAuthor((v) => v || roleAuthor), [roleAuthor]);
  useEffect(() => setReviewer((v) => v || roleReviewer), [roleReviewer]);
  useEffect(() => {
    const models = [...new Set([author, reviewer].filter(Boolean))];
    if (models.length > 0) void loadStatus(models);
  }, [author, reviewer, loadStatus]);

  const budgetValues = Object.fromEntries(Object.entries(budgets).filter(([, v]) => v !== undefined && v.trim() !== '').map(([k, v]) => [k, k === 'maxWallMs' ? Math.round(Number(v) * 60_000) : Number(v)]));
  const parsedBudgets = genBudgetSchema.safeParse(budgetValues);
  const text = request.trim();
  const canStart = !starting && text !== '' && request.length <= MAX_GEN_REQUEST_CHARS && author !== '' && reviewer !== '' && parsedBudgets.success;

  const submit = async (): Promise<void> => {
    setStarting(true);
    setError(null);
    try {
      // The role's own model is left to the host, which resolves it (it may come from the environment).
      const failure = await start({
        request: text,
        ...(author !== roleAuthor ? { author } : {}),
        ...(reviewer !== roleReviewer ? { reviewer } : {}),
        ...(parsedBudgets.success && Object.keys(parsedBudgets.data).length > 0 ? { budgets: parsedBudgets.data } : {}),
      });
      if (failure) setError(failure);
      else setRequest('');
    } finally {
      setStarting(false);
      // Start runs the conformance check of an unchecked model: show its stored result.
      void loadStatus([...new Set([author, reviewer])]);
    }
  };

  return (
    <div className="card gen-new" data-testid="gen-new-form">
      <h2>{t('gen.form.title')}</h2>
      <label className="gen-field">
        {t('gen.form.request')}
        <textarea value={request} rows={5} maxLength={MAX_GEN_REQUEST_CHARS} placeholder={t('gen.form.placeholder')} onChange={(e) => setRequest(e.target.value)} data-testid="gen-request" />
      </label>
      <div className="gen-models">
        <ModelPicker role="author" value={author} options={options} onChange={setAuthor} />
        <ModelPicker role="reviewer" value={reviewer} options={options} onChange={setReviewer} />
      </div>
      {options.length === 0 && <p className="hint warning">{t('gen.form.noProvider')}</p>}
      <details className="gen-budgets" data-testid="gen-budgets">
        <summary>{t('gen.budget.title')}</summary>
        <p className="hint">{t('gen.budget.hint')}</p>
        <div className="gen-budget-grid">
          {BUDGET_FIELDS.map((field) => (
            <label key={field} className="gen-field">
              {t(`gen.budget.${field}`)}
              <input type="number" min={1} value={budgets[field] ?? ''} placeholder={t('gen.budget.default')} onChange={(e) => setBudgets((b) => ({ ...b, [field]: e.target.value }))} data-testid={`gen-budget-${field}`} />
            </label>
          ))}
        </div>
        {!parsedBudgets.success && (
          <p className="form-error" data-testid="gen-budget-error">
            {parsedBudgets.error.issues.map((i) => `${t(`gen.budget.${String(i.path[0]) as BudgetField}`)}: ${i.message}`).join('; ')}
          </p>
        )}
      </details>
      <div className="cdsl-actions">
        <button type="button" className="btn-primary" disabled={!canStart} onClick={() => void submit()} data-testid="gen-start">
          {starting ? t('gen.form.starting') : t('gen.form.start')}
        </button>
        <span className="muted">{t('gen.form.chars', { count: request.length, max: MAX_GEN_REQUEST_CHARS })}</span>
      </div>
      {error && <ErrorLine error={error} testId="gen-start-error" prefix={t('gen.form.startFailed')} />}
    </div>
  );
}

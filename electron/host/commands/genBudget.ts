import { genBudgetSchema } from '../../../shared/ipc/contracts/generation';
import { BUDGET_LIMITS, parseBudgetEntries, ProtocolErrorCode, type TaskBudget, type TaskRecord } from '../../features/cadgen/index';
import { AppError } from '../../../shared/errors';

/**
 * `--budget name=N` entries of `gen resume` as budget fields, checked against the same ranges as
 * the app's budget fields. Errors: CDSL_BUDGET_INVALID (syntax, unknown limit, not a positive
 * whole number, repeated, or out of range).
 */
export function budgetRaiseOf(entries: readonly string[] | undefined): Partial<TaskBudget> | undefined {
  if (!entries || entries.length === 0) return undefined;
  const raise = parseBudgetEntries(entries);
  const checked = genBudgetSchema.safeParse(raise);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new AppError(ProtocolErrorCode.budgetInvalid, `budget out of range: ${String(issue?.path[0] ?? '')} ${issue?.message ?? ''}`.trim(), { data: { reason: 'out_of_range', field: String(issue?.path[0] ?? '') } });
  }
  return raise;
}

/** One line with the task's limits and what they were fitted to (shown up front by gen new/show). */
export function budgetLine(task: TaskRecord): string {
  const b = task.budget;
  const limits = `${b.maxAuthorTurns} author turns, ${b.maxReviewerCalls} reviewer calls, ${b.maxCandidateBuilds} builds, ${(b.maxPromptTokens / 1e6).toFixed(1)} M prompt tokens, ${Math.round(b.maxWallMs / 60_000)} min`;
  const basis = task.budget_basis;
  const why = basis
    ? `fitted to ${basis.features} features of ${basis.requirements} requirements / ${basis.claims} claims`
    : task.budget_overrides
      ? 'until the requirements are frozen; then fitted to the part'
      : 'fixed';
  // Named as --budget takes them (author_turns, …); limits no resume raises keep their field name.
  const explicit = Object.keys(task.budget_overrides ?? {}).map((field) => Object.entries(BUDGET_LIMITS).find(([, l]) => l.budget === field)?.[0] ?? field);
  return `budget: ${limits} (${why}${explicit.length ? `; set by you: ${explicit.join(', ')}` : ''})`;
}

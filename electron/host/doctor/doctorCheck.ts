import { AppError } from '../../../shared/errors';
import type { SystemCheckItem, SystemCheckReport } from '../../../shared/ipc/contracts/platform';

/** What a check found: the row without its id, label and duration. */
export type DoctorOutcome = Pick<SystemCheckItem, 'status' | 'detail' | 'provider' | 'problem' | 'finding'>;

/** One row of the system check: what it looks at and how. `run` may throw; that is a failed row. */
export interface DoctorCheck {
  id: string;
  group: SystemCheckItem['group'];
  label: string;
  run(): Promise<DoctorOutcome>;
}

/** How a thrown error reads in a row: the typed code and message, never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof AppError) return `[${error.code}] ${error.message}`;
  return `[INTERNAL_ERROR] ${error instanceof Error ? error.name : 'error'} while checking`;
}

/** A failed row for a check that threw: the English detail for the CLI, the typed code for the UI. */
export function failedOutcome(error: unknown): DoctorOutcome {
  const code = error instanceof AppError ? error.code : 'INTERNAL_ERROR';
  return { status: 'fail', detail: describeError(error), finding: { code: 'check-error', params: { code } } };
}

/**
 * Runs the checks one after another (they share two cores with whatever the user runs) and
 * reports `ok` false only when a row failed: warnings are optional pieces or unconfigured ones.
 */
export async function runDoctor(checks: DoctorCheck[], now: () => number = () => performance.now()): Promise<SystemCheckReport> {
  const items: SystemCheckItem[] = [];
  for (const check of checks) {
    const started = now();
    let outcome: DoctorOutcome;
    try {
      outcome = await check.run();
    } catch (error) {
      outcome = failedOutcome(error);
    }
    items.push({ id: check.id, group: check.group, label: check.label, ...outcome, durationMs: Math.round(now() - started) });
  }
  return { checkedAt: new Date().toISOString(), ok: items.every((item) => item.status !== 'fail'), items };
}

/** The human table printed by `cadsight doctor`. */
export function formatDoctorTable(report: SystemCheckReport): string {
  const mark = { pass: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;
  const width = Math.max(...report.items.map((item) => item.label.length), 5);
  const rows = report.items.map((item) => `  ${item.label.padEnd(width)}  ${mark[item.status].padEnd(4)}  ${item.detail}`);
  const failed = report.items.filter((item) => item.status === 'fail').length;
  const warned = report.items.filter((item) => item.status === 'warn').length;
  const summary = failed === 0 ? `everything configured works${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}` : `${failed} check${failed > 1 ? 's' : ''} failed`;
  return ['cadsight doctor', ...rows, summary, ''].join('\n');
}

import { AppError } from '../../../../shared/errors';
import { formatEndpoint, type CadEndpoint } from '../domain/protocol/cadErrors';
import type { CadSocketFactory } from '../ports/cadSocket';
import type { Clock } from '../ports/clock';
import { CONFORMANCE_CHECKS, type CheckContext, type ConformanceCheck } from './conformanceChecks';
import { openProbe } from './probeConnection';

/**
 * `cadsight verify-cad`: runs every conformance check against a live server (the AutoCAD
 * plugin, the DXF backend) and reports a pass/fail row per check. Nothing here calls a real
 * tool of the drawing: the probes use tools/list, an unknown method and a nonexistent tool,
 * so running it against a user's open drawing is harmless.
 */

export interface ConformanceRow {
  id: string;
  title: string;
  passed: boolean;
  detail: string;
  durationMs: number;
}

export interface ConformanceReport {
  endpoint: string;
  /** True only when every check passed. */
  passed: boolean;
  rows: ConformanceRow[];
}

export interface VerifyConformanceOptions {
  endpoint: CadEndpoint;
  socketFactory: CadSocketFactory;
  clock: Clock;
  /** Per-reply wait. Default 5000 ms. */
  replyTimeoutMs?: number;
  /** Silence that proves a notification got no reply. Default 500 ms. */
  silenceMs?: number;
  /** The checks to run (default: all of CONFORMANCE_CHECKS). */
  checks?: readonly ConformanceCheck[];
}

/**
 * Runs the checks in order, one fresh connection each. Throws AppError CAD_NOT_CONNECTED (with
 * host:port and what to start) when the server cannot be reached at all; a check that fails
 * for any other reason is a failed row, never an exception.
 */
export async function verifyConformance(options: VerifyConformanceOptions): Promise<ConformanceReport> {
  const { endpoint, clock } = options;
  const context: CheckContext = {
    open: () => openProbe(options.socketFactory, endpoint, clock, { connectTimeoutMs: options.replyTimeoutMs ?? 5000, maxFrameBytes: 64 * 1024 * 1024 }),
    replyTimeoutMs: options.replyTimeoutMs ?? 5000,
    silenceMs: options.silenceMs ?? 500,
    sleep: (ms) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms)),
  };
  // Reachability first, so "AutoCAD is not running" is one clear error instead of N failed rows.
  (await context.open()).close();
  const rows: ConformanceRow[] = [];
  for (const check of options.checks ?? CONFORMANCE_CHECKS) {
    const started = clock.now();
    let outcome: { passed: boolean; detail: string };
    try {
      outcome = await check.run(context);
    } catch (error) {
      outcome = { passed: false, detail: error instanceof AppError ? `[${error.code}] ${error.message}` : `check crashed: ${String(error)}` };
    }
    rows.push({ id: check.id, title: check.title, ...outcome, durationMs: Math.round(clock.now() - started) });
  }
  return { endpoint: formatEndpoint(endpoint), passed: rows.every((row) => row.passed), rows };
}

/** The human table: one PASS/FAIL line per check and a summary line. */
export function formatConformanceTable(report: ConformanceReport): string {
  const width = Math.max(...report.rows.map((row) => row.title.length));
  const lines = report.rows.map((row) => `${row.passed ? 'PASS' : 'FAIL'}  ${row.title.padEnd(width)}  ${row.detail}`);
  const failed = report.rows.filter((row) => !row.passed).length;
  const summary = failed === 0 ? `All ${report.rows.length} checks passed against ${report.endpoint}.` : `${failed} of ${report.rows.length} checks failed against ${report.endpoint}.`;
  return `CAD conformance: ${report.endpoint}\n\n${lines.join('\n')}\n\n${summary}\n`;
}

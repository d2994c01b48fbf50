import { ERROR_CATEGORY } from '../../domain/protocol/errors';
import type { ProtocolErrorCodeValue } from '../../domain/protocol/errors';
import type { InvocationAudit } from './ports';

/** One line of `gen ledger --all`: a ledger event, or the audit row of one model output. */
export type RecordLine = ({ record: 'ledger' } & Record<string, unknown>) | ({ record: 'invocation'; format_error: boolean } & InvocationAudit);

/**
 * The ledger (seed §4.4: proposals, rejections, builds, reviews, checkpoints) merged in time order
 * with every model output's audit row, format errors included and marked `format_error` (they
 * stay out of the ledger itself). A model output comes before the ledger lines its commit wrote.
 */
export function fullRecord(ledger: readonly Record<string, unknown>[], invocations: readonly InvocationAudit[]): RecordLine[] {
  const lines: { at: string; rank: number; index: number; line: RecordLine }[] = [
    ...invocations.map((inv, index) => ({ at: inv.at, rank: 0, index, line: { record: 'invocation' as const, ...inv, format_error: inv.code !== null && ERROR_CATEGORY[inv.code as ProtocolErrorCodeValue] === 'format' } })),
    ...ledger.map((event, index) => ({ at: String(event.at ?? ''), rank: 1, index, line: { record: 'ledger' as const, ...event } })),
  ];
  return lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.rank - b.rank || a.index - b.index)).map((l) => l.line);
}

import type { GenLedgerEvent } from '../../../store/generationSlice';
import { formatTime } from '../../../i18n/messages';
import { useApp, useT } from '../../../store/StoreContext';
import { CandidateReview } from './CandidateReview';
import { completedClaims, knownLabel } from './taskFacts';

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Field-level detail of a rejection (issues / path lists in the error data), as "path: message" lines. */
function fieldDetails(event: GenLedgerEvent): string[] {
  const issues = Array.isArray(event.issues) ? event.issues : Array.isArray((event.data as Record<string, unknown> | undefined)?.issues) ? ((event.data as Record<string, unknown>).issues as unknown[]) : [];
  return issues.flatMap((issue) => {
    const row = issue as Record<string, unknown>;
    const where = str(row.path) ?? str(row.field) ?? str(row.draft_id);
    const what = str(row.message) ?? str(row.code);
    return what ? [where ? `${where}: ${what}` : what] : [];
  });
}

/** What one ledger fact says, beyond its type: the fields that matter for that type. */
function Facts({ event, taskId }: { event: GenLedgerEvent; taskId: string }) {
  const t = useT();
  const code = str(event.code) ?? str(event.reason);
  const coverage = Array.isArray(event.coverage) ? (event.coverage as Record<string, unknown>[]) : [];
  const details = fieldDetails(event);
  return (
    <div className="gen-ledger-facts">
      {str(event.action_id) && <span className="mono muted">{str(event.action_id)}</span>}
      {str(event.intent) && <span>{str(event.intent)}</span>}
      {str(event.proposed_atomic_id) && <span>{t('gen.ledger.operation', { op: str(event.proposed_atomic_id)! })}</span>}
      {str(event.actual_atomic_id) && <span>{t('gen.ledger.operation', { op: str(event.actual_atomic_id)! })}</span>}
      {str(event.expected_change) && <span>{t('gen.ledger.expected', { change: str(event.expected_change)! })}</span>}
      {strings(event.requirement_ids).length > 0 && <span className="mono muted">{strings(event.requirement_ids).join(', ')}</span>}
      {str(event.revision_id) && <span className="mono">{str(event.revision_id)}</span>}
      {str(event.fragment_sha256) && <span className="mono muted" title={str(event.fragment_sha256)!}>{t('gen.ledger.fragment', { hash: str(event.fragment_sha256)!.slice(0, 12) })}</span>}
      {str(event.review_path) && <CandidateReview taskId={taskId} path={str(event.review_path)!} seq={typeof event.sequence === 'number' ? event.sequence : 0} />}
      {code && event.event === 'waiting' && <span>{knownLabel(t, 'gen.question.code.', code)}</span>}
      {code && <span className="banner-code">{code}</span>}
      {str(event.summary) && event.event !== 'accepted' && <span>{str(event.summary)}</span>}
      {event.event === 'completed' && typeof event.claims_passed === 'number' && <span>{t('gen.ledger.completedClaims', { count: completedClaims(event.claims_passed) })}</span>}
      {strings(event.blockers).length > 0 && <span className="warning">{t('gen.ledger.blockers', { list: strings(event.blockers).join(', ') })}</span>}
      {coverage.length > 0 && (
        <span className="gen-coverage">
          {coverage.map((c) => (
            <span key={String(c.requirement_id)} className={`cdsl-badge gen-coverage-${String(c.status)}`}>
              {String(c.requirement_id)}: {knownLabel(t, 'gen.coverage.', String(c.status))}
            </span>
          ))}
        </span>
      )}
      {details.length > 0 && (
        <ul className="gen-field-details">
          {details.map((d) => (
            <li key={d} className="mono">
              {d}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const TONE: Record<string, string> = { accepted: 'pass', completed: 'pass', rejected: 'fail', review_rejected: 'fail', candidate_failed: 'fail', final_rejected: 'fail', failed: 'fail', waiting: 'pending', rolled_back: 'pending' };

/** The action ledger: what has happened, in sequence order. History only, never a plan of future steps. */
export function LedgerTimeline({ taskId, ledger }: { taskId: string; ledger: GenLedgerEvent[] }) {
  const t = useT();
  const locale = useApp((s) => s.locale);
  return (
    <section className="card" data-testid="gen-ledger">
      <div className="cdsl-card-head">
        <h2>{t('gen.ledger.title')}</h2>
        <span className="muted">{t('gen.ledger.hint')}</span>
      </div>
      {ledger.length === 0 ? (
        <p className="muted">{t('gen.ledger.empty')}</p>
      ) : (
        <ol className="gen-ledger">
          {ledger.map((event) => {
            const type = str(event.event) ?? 'unknown';
            const seq = typeof event.sequence === 'number' ? event.sequence : 0;
            const at = str(event.at);
            return (
              <li key={seq} className={`gen-ledger-event gen-tone-${TONE[type] ?? 'neutral'}`} data-testid={`gen-ledger-event-${seq}`} data-type={type}>
                <span className="gen-ledger-seq mono">#{seq}</span>
                <span className="gen-ledger-type">{knownLabel(t, 'gen.ledger.type.', type)}</span>
                {at && <time className="muted" dateTime={at}>{formatTime(locale, at)}</time>}
                <Facts event={event} taskId={taskId} />
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

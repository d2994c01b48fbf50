import type { GenClaimView, GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import type { DraftReview } from '../../../store/generationFacts';
import { useT } from '../../../store/StoreContext';
import { faceTokensOf, measuredVsExpected, verdictLabel } from './taskFacts';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The user's request as the engine stored it (its source requirements). */
export function SourceRequest({ detail }: { detail: GenTaskDetail }) {
  const t = useT();
  return (
    <section className="card" data-testid="gen-source">
      <h2>{t('gen.source.title')}</h2>
      {detail.sources.length === 0 ? (
        <p className="gen-request-text">{detail.task.request}</p>
      ) : (
        detail.sources.map((s) => (
          <p key={s.sourceId} className="gen-request-text">
            <span className="mono muted">{s.sourceId}</span> {s.text}
          </p>
        ))
      )}
    </section>
  );
}

/** Badge tone of a draft verdict: a question to the user is still open, anything but pass needs work. */
const badgeOf = (verdict: string | undefined): string => (verdict === undefined || verdict === 'waiting_for_user' ? 'pending' : verdict === 'pass' ? 'pass' : 'fail');

/** The author's requirement drafts with the reviewer's latest verdict per item (once the reviewer answered, before or after approval). */
export function Drafts({ detail, review }: { detail: GenTaskDetail; review: DraftReview | null }) {
  const t = useT();
  if (detail.drafts.length === 0) return null;
  return (
    <section className="card" data-testid="gen-drafts">
      <div className="cdsl-card-head">
        <h2>{t('gen.drafts.title')}</h2>
        <span className="muted">{review ? t('gen.drafts.reviewed', { verdict: verdictLabel(t, review.verdict) }) : t('gen.drafts.notReviewed')}</span>
      </div>
      <ul className="gen-drafts">
        {detail.drafts.map((d) => {
          const verdict = review?.items.get(d.draftId);
          return (
            <li key={d.draftId} data-testid={`gen-draft-${d.draftId}`} data-verdict={verdict?.verdict ?? 'pending'}>
              <span className={`cdsl-badge cdsl-badge-${badgeOf(verdict?.verdict)}`}>{verdict ? verdictLabel(t, verdict.verdict) : t('gen.drafts.pending')}</span>{' '}
              <span className="mono muted">{d.draftId}</span> {text(d.item.statement)}
              {verdict?.note && <div className="muted">{verdict.note}</div>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function ClaimRow({ claim, selected, onSelect }: { claim: GenClaimView; selected: boolean; onSelect(claimId: string | null): void }) {
  const t = useT();
  const faces = faceTokensOf(claim.evidence);
  const { measured, expected } = measuredVsExpected(claim);
  return (
    <li className={`gen-claim${selected ? ' selected' : ''}`} data-testid={`gen-claim-${claim.claimId}`} data-status={claim.status} data-deterministic={String(claim.deterministic)}>
      <div className="gen-claim-head">
        <span className={`cdsl-badge cdsl-badge-${claim.status}`}>{t(`cadgen.status.${claim.status}`)}</span>
        <span className="mono">{claim.claimId}</span>
        <span className="mono muted">{claim.kind}</span>
        {!claim.deterministic && <span className="cdsl-badge gen-visual" title={t('gen.claim.visualHint')}>{t('gen.claim.visual')}</span>}
        {faces.length > 0 && (
          <button type="button" className="btn-ghost btn-small" aria-pressed={selected} data-testid={`gen-claim-faces-${claim.claimId}`} onClick={() => onSelect(selected ? null : claim.claimId)}>
            {selected ? t('gen.claim.hideFaces') : t('gen.claim.showFaces', { count: faces.length })}
          </button>
        )}
      </div>
      {claim.message && <div>{claim.message}</div>}
      <div className="gen-claim-evidence muted">
        {measured !== null && <span>{t('gen.claim.measured', { value: measured })} · </span>}
        <span>{t('gen.claim.expected', { value: expected })}</span>
        {faces.length > 0 && <span className="mono"> · {t('gen.claim.faces', { tokens: faces.join(', ') })}</span>}
      </div>
      {claim.evidence && (
        <details className="cdsl-evidence">
          <summary>{t('cadgen.claims.evidence')}</summary>
          <pre className="mono">{JSON.stringify(claim.evidence, null, 2)}</pre>
        </details>
      )}
    </li>
  );
}

/** The frozen requirements contract: each requirement with its claims' live status for the shown revision. */
export function Contract({ detail, selectedClaim, onSelectClaim }: { detail: GenTaskDetail; selectedClaim: string | null; onSelectClaim(claimId: string | null): void }) {
  const t = useT();
  const contract = detail.contract;
  if (!contract) return null;
  return (
    <section className="card" data-testid="gen-contract" data-hash={contract.hash}>
      <div className="cdsl-card-head">
        <h2>{t('gen.contract.title')}</h2>
        <span className="muted">{detail.shownRevision ? t('gen.contract.forRevision', { revision: detail.shownRevision }) : t('gen.contract.noRevision')}</span>
      </div>
      <ol className="gen-requirements">
        {contract.requirements.map((r) => (
          <li key={r.requirementId} data-testid={`gen-requirement-${r.requirementId}`}>
            <div className="gen-requirement-head">
              <span className="mono muted">{r.requirementId}</span> <strong>{r.statement}</strong>
            </div>
            {r.assumptions.length > 0 && <div className="muted">{t('gen.contract.assumptions', { list: r.assumptions.join('; ') })}</div>}
            <ul className="gen-claims">
              {r.claims.map((c) => (
                <ClaimRow key={c.claimId} claim={c} selected={selectedClaim === c.claimId} onSelect={onSelectClaim} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}

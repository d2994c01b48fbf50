import type { CadgenClaimResult } from '../../../shared/ipc/contracts/cadgen';
import { useT } from '../../store/StoreContext';

const STATUSES = ['pass', 'fail', 'pending', 'unavailable'] as const;

/** Every claim's result with its verifier's evidence (measured values, tolerances, tokens). */
export function ClaimTable({ claims }: { claims: CadgenClaimResult[] }) {
  const t = useT();
  const counts = Object.fromEntries(STATUSES.map((s) => [s, claims.filter((c) => c.status === s).length]));
  return (
    <section className="card cdsl-claims" data-testid="cdsl-claims">
      <div className="cdsl-card-head">
        <h2>{t('cadgen.claims.title')}</h2>
        {claims.length > 0 && <span className="muted">{t('cadgen.claims.summary', counts)}</span>}
      </div>
      {claims.length === 0 ? (
        <p className="muted">{t('cadgen.claims.none')}</p>
      ) : (
        <table className="cdsl-table">
          <thead>
            <tr>
              <th>{t('cadgen.claims.status')}</th>
              <th>{t('cadgen.claims.claim')}</th>
              <th>{t('cadgen.claims.kind')}</th>
              <th>{t('cadgen.claims.detail')}</th>
            </tr>
          </thead>
          <tbody>
            {claims.map((claim) => (
              <tr key={claim.id} data-testid={`cdsl-claim-${claim.id}`} data-status={claim.status}>
                <td>
                  <span className={`cdsl-badge cdsl-badge-${claim.status}`}>{t(`cadgen.status.${claim.status}`)}</span>
                </td>
                <td>
                  <div className="mono">{claim.id}</div>
                  {claim.description && <div className="muted">{claim.description}</div>}
                </td>
                <td className="mono">{claim.kind}</td>
                <td>
                  <div>{claim.message}</div>
                  <details className="cdsl-evidence">
                    <summary>{t('cadgen.claims.evidence')}</summary>
                    <pre className="mono">{JSON.stringify(claim.evidence, null, 2)}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateBlockers, reviewContradictions } from './candidateGate';
import type { GatedClaim } from './candidateGate';
import type { ClaimStatus } from './types';

const STATUSES: ClaimStatus[] = ['pass', 'pending', 'fail', 'unavailable'];
const claimArb = (id: string) =>
  fc.record({ id: fc.constant(id), status: fc.constantFrom(...STATUSES), message: fc.constant(id), deterministic: fc.boolean(), invariant: fc.boolean() });
const claimsArb = fc.tuple(claimArb('c1'), claimArb('c2'), claimArb('c3'));

describe('candidate gate (seed §6.4)', () => {
  it('blocks exactly for a failing targeted claim, a regression from pass, a failing invariant or a needed verifier that is unavailable', () => {
    fc.assert(
      fc.property(claimsArb, fc.array(fc.constantFrom('pass', 'pending', 'fail') as fc.Arbitrary<ClaimStatus>, { minLength: 3, maxLength: 3 }), fc.subarray(['c1', 'c2', 'c3']), (current, parentStatuses, targeted) => {
        const parent: GatedClaim[] = current.map((c, i) => ({ ...c, status: parentStatuses[i] as ClaimStatus }));
        const blocked = new Set(candidateBlockers(current, parent, new Set(targeted)).map((b) => b.id));
        for (const [i, c] of current.entries()) {
          const expected =
            c.deterministic &&
            ((c.status === 'fail' && (targeted.includes(c.id) || c.invariant)) || (c.status === 'unavailable' && (targeted.includes(c.id) || c.invariant)) || (c.status !== 'pass' && parentStatuses[i] === 'pass'));
          expect(blocked.has(c.id), JSON.stringify({ c, parent: parentStatuses[i], targeted })).toBe(expected);
        }
      }),
    );
  });

  it('never blocks on pending claims that never passed (future work)', () => {
    const pending: GatedClaim[] = [{ id: 'c1', status: 'pending', message: '', deterministic: true, invariant: true }];
    expect(candidateBlockers(pending, [], new Set(['c1']))).toEqual([]);
  });

  it('finds a contradiction for every reviewer row that states another status than the server for a deterministic claim', () => {
    fc.assert(
      fc.property(claimsArb, fc.array(fc.constantFrom('pass', 'fail', 'pending', 'unverified'), { minLength: 3, maxLength: 3 }), (results, said) => {
        const rows = results.map((r, i) => ({ claim_id: r.id, status: said[i] as string }));
        const found = new Set(reviewContradictions(rows, results).map((c) => c.claim_id));
        for (const [i, r] of results.entries()) {
          const s = said[i];
          const expected = r.deterministic && s !== 'unverified' && (r.status === 'unavailable' ? s !== 'pending' : s !== r.status);
          expect(found.has(r.id)).toBe(expected);
        }
      }),
    );
  });
});

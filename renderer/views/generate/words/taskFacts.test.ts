import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCandidateReview, parseDraftReview } from '../../../store/generationFacts';
import { excerpt, faceTokensOf, GEN_STATES, isWorking, measuredVsExpected, phaseOf } from './taskFacts';
import { candidateReviewJson, completedDetail, completedEvents, requirementsReviewJson } from './taskFixtures';

const claims = () => completedDetail().contract!.requirements.flatMap((r) => r.claims);

describe('task facts', () => {
  it('finds every face token in nested evidence, once each, and nothing else', () => {
    const pattern = claims().find((c) => c.claimId === 'claim_004')!;
    expect(faceTokensOf(pattern.evidence)).toEqual(['fc_1a6a7cd4551d7773e9af', 'fc_1a6a7cd49e3da893f8b3', 'fc_1a6a7cd44139487f4560', 'fc_1a6a7cd4e111a3a7f7ce']);
    expect(faceTokensOf({ a: ['fc_1a6a7cd4551d7773e9af', { b: 'fc_1a6a7cd4551d7773e9af' }], c: 'ed_1a6a7cd4551d7773e9af', d: 'fc_xyz' })).toEqual(['fc_1a6a7cd4551d7773e9af']);
    expect(faceTokensOf(null)).toEqual([]);
  });

  it('states measured against expected from the verifier evidence', () => {
    const box = claims().find((c) => c.claimId === 'claim_001')!;
    expect(measuredVsExpected(box)).toEqual({ measured: 'mm [12, 120, 120]', expected: '{axis: sorted, values_mm: [12, 120, 120], tolerance_mm: 0.01}' });
    const bore = claims().find((c) => c.claimId === 'claim_003')!;
    expect(measuredVsExpected(bore).measured).toBeNull();
  });

  it('cuts a request to its first line', () => {
    expect(excerpt('flange\nwith holes')).toBe('flange');
    expect(excerpt('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('derives a phase for every state, and "building" from a newer candidate_building event', () => {
    for (const state of GEN_STATES) expect(typeof phaseOf(state, null)).toBe('string');
    const building = completedEvents().find((e) => e.type === 'candidate_building')!;
    expect(phaseOf('ACTION_PENDING', building)).toBe('building');
    expect(phaseOf('COMPLETED', building)).toBe('completed');
    expect(GEN_STATES.filter(isWorking)).toHaveLength(7);
  });

  it('reads the real requirements review document', () => {
    const review = parseDraftReview(new TextEncoder().encode(requirementsReviewJson()));
    expect(review?.verdict).toBe('approve');
    expect([...review!.items]).toEqual([['d_001', { verdict: 'pass', note: '' }], ['d_002', { verdict: 'pass', note: '' }], ['d_003', { verdict: 'pass', note: '' }]]);
  });

  it('reads the real candidate review and keeps only well-typed evidence and issues', () => {
    expect(parseCandidateReview(new TextEncoder().encode(candidateReviewJson()))).toEqual({ verdict: 'accept', evidence: ['drawings and claim results checked'], issues: [] });
    const odd = { verdict: 'reject', evidence: ['ok', 3, null], issues: [{ code: 'claim_failed', message: 'a claim fails' }, { message: 'no code' }, null, 'x'] };
    expect(parseCandidateReview(new TextEncoder().encode(JSON.stringify(odd)))).toEqual({ verdict: 'reject', evidence: ['ok'], issues: ['[claim_failed] a claim fails', 'no code'] });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(() => parseCandidateReview(bytes)).not.toThrow();
      }),
    );
  });

  it('never throws on arbitrary bytes and keeps only well-typed review items', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const review = parseDraftReview(bytes);
        expect(review === null || typeof review.verdict === 'string').toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ draft_id: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor'), fc.integer()), verdict: fc.oneof(fc.constantFrom('pass', 'fail'), fc.constant(null)), note: fc.option(fc.string()) })), (items) => {
        const review = parseDraftReview(new TextEncoder().encode(JSON.stringify({ verdict: 'revise', items })));
        const expected = items.filter((i) => typeof i.draft_id === 'string' && typeof i.verdict === 'string');
        expect([...review!.items.keys()].sort()).toEqual([...new Set(expected.map((i) => i.draft_id as string))].sort());
      }),
    );
  });
});

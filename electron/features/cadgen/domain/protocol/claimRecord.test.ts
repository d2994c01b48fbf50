import { describe, expect, it } from 'vitest';
import { claimsDocument, completionMarkdown } from './claimRecord';
import type { RequirementsContract } from './task';

const contract: RequirementsContract = {
  schema_version: 'cad.requirements-contract.v1', task_id: 'task_abcdef',
  requirements: [{ requirement_id: 'R1', draft_id: 'd1', statement: 'four Ø10 holes', source_ids: ['S1'], assumptions: [], claim_ids: ['C1', 'C2'] }],
  claims: [
    { claim_id: 'C1', requirement_id: 'R1', claim_kind: 'hole_pattern', expected: { count: 4, diameter_mm: 10 }, deterministic: true },
    { claim_id: 'C2', requirement_id: 'R1', claim_kind: 'visual', expected: { description: 'looks like a flange' }, deterministic: false },
  ],
};

describe('the claim record of a revision', () => {
  it('before any build lists every claim unchecked and not evaluated', () => {
    const doc = claimsDocument(contract, null, 'contract', []);
    expect(doc.claims.map((c) => c.status)).toEqual(['not_evaluated', 'not_evaluated']);
    const md = completionMarkdown(doc);
    expect(md.startsWith('# Completion checklist\n')).toBe(true);
    expect(md).toContain('- [ ] C1 (R1) hole_pattern {"count":4,"diameter_mm":10}');
    expect(md).toContain('- [ ] C2 (R1) visual');
  });

  it('checks only passes, says what failed, shows measured values and keeps server invariants apart', () => {
    const doc = claimsDocument(contract, 'rev_002', 'final', [
      { id: 'C1', kind: 'hole_pattern', deterministic: true, status: 'fail', message: '4 holes Ø12, expected Ø10', evidence: { code: 'X', measured_diameter_mm: 12 } },
      { id: 'C2', kind: 'visual', deterministic: false, status: 'pass', message: 'independent reviewer: flange-like', evidence: { reviewer_verdict: 'pass' } },
      { id: 'global_step_valid', kind: 'step_reimport', deterministic: true, status: 'pass', message: 'STEP re-import: 1 solid(s)', evidence: { solid_count: 1 } },
    ]);
    expect(doc).toMatchObject({ revision_id: 'rev_002', stage: 'final', passed: 2, total: 3 });
    expect(doc.claims[0]).toMatchObject({ claim_id: 'C1', status: 'fail', expected: { count: 4, diameter_mm: 10 }, measured: { measured_diameter_mm: 12 } });
    expect(doc.claims[2]).toMatchObject({ claim_id: 'global_step_valid', requirement_id: null, expected: null });
    const md = completionMarkdown(doc);
    expect(md).toContain('(final: 2/3 pass)');
    expect(md).toContain('- [ ] C1 (R1)');
    expect(md).toContain('status: **fail** — 4 holes Ø12, expected Ø10');
    expect(md).toContain('measured: `{"measured_diameter_mm":12}`');
    expect(md).toContain('- [x] C2 (R1) visual');
    expect(md).toContain('- [x] global_step_valid (server invariant) step_reimport');
  });
});

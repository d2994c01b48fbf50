import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../../application/schemaValidator';
import { openSchemaPaths } from '../../closedSchema';
import { ALL_CONTRACTS } from '../../contracts/registry';
import { fragmentSchema } from '../../contracts/fragmentSchema';
import { ALL_VERIFIERS } from '../../verifiers/registry';
import { TASK_STATES } from '../states';
import { exposedTools, staleBindings } from './exposure';
import type { TurnView } from './exposure';
import { submitFragmentTool } from './fragmentTool';
import { validateRawArguments } from './toolKit';
import type { SchemaCheck } from './toolKit';

const validator = new SchemaValidator();
const check: SchemaCheck = (schema, value, path) => validator.issues(schema, value, path);
const claimKinds = ALL_VERIFIERS.map((v) => ({ kind: v.kind, summary: v.summary, expected_schema: v.expected_schema }));
const hole = ALL_CONTRACTS.find((c) => c.atomic_id === 'hole');
if (!hole) throw new Error('hole contract missing');

function view(overrides: Partial<TurnView>): TurnView {
  return {
    state: 'DRAFTING_REQUIREMENTS',
    head: 'head_000000000001',
    hasRevision: true,
    sourceIds: ['src_001', 'src_002'],
    draftIds: ['d_001'],
    draftComplete: false,
    requirementIds: ['req_001', 'req_002'],
    claimIds: ['claim_001', 'claim_002'],
    visualClaimIds: [],
    claimKinds,
    claimSchemasRead: true,
    operations: ['extrude', 'hole'],
    pending: null,
    inspectedSnapshotId: null,
    fragmentSchema: null,
    evidenceRefs: ['err_001'],
    checkpointTokens: ['rev_001'],
    completable: true,
    repairing: true,
    candidate: { id: 'cand_001', head: 'head_000000000001' },
    revisionId: 'rev_002',
    ...overrides,
  };
}

const names = (v: TurnView): string[] => exposedTools(v, check).map((t) => t.name).sort();

describe('protocol tools', () => {
  it('offers on the happy path only what the seed allows there: propose with no pending action (and complete once the gate is open), no rollback while an action is pending', () => {
    const happy = { evidenceRefs: [], repairing: false };
    expect(names(view({ ...happy, state: 'AWAITING_ACTION', completable: false }))).toEqual(['propose_next_action']);
    expect(names(view({ ...happy, state: 'AWAITING_ACTION' }))).toEqual(['complete_task', 'propose_next_action']);
    const pending = { atomicId: 'hole', contractHash: 'ch_1', needsSnapshot: true };
    expect(names(view({ ...happy, state: 'ACTION_PENDING', pending, inspectedSnapshotId: 'snap1', fragmentSchema: fragmentSchema(hole, null) }))).toEqual(['inspect_topology', 'submit_cdsl_fragment']);
  });

  it('derives the visible tools from the state, pending action and snapshot only', () => {
    expect(names(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [] }))).toEqual(['get_claim_schema', 'submit_requirements_draft_batch']);
    expect(names(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [], claimSchemasRead: false }))).toEqual(['get_claim_schema']);
    expect(names(view({ state: 'DRAFTING_REQUIREMENTS' }))).toEqual(['get_claim_schema', 'patch_requirements_draft', 'submit_requirements_draft_batch']);
    expect(names(view({ state: 'DRAFTING_REQUIREMENTS', draftComplete: true }))).toEqual(['finalize_requirements_draft']);
    expect(names(view({ state: 'REVIEWING_REQUIREMENTS' }))).toEqual(['review_requirements']);
    expect(names(view({ state: 'AWAITING_ACTION' }))).toEqual(['complete_task', 'get_cdsl_operation_contract', 'inspect_topology', 'measure', 'propose_next_action', 'record_geometry_conclusion', 'render_view', 'rollback_checkpoint']);
    expect(names(view({ state: 'AWAITING_ACTION', hasRevision: false, completable: false, evidenceRefs: [], checkpointTokens: [] }))).toEqual(['get_cdsl_operation_contract', 'propose_next_action']);
    const pending = { atomicId: 'hole', contractHash: 'ch_1', needsSnapshot: true };
    expect(names(view({ state: 'ACTION_PENDING', pending, inspectedSnapshotId: 'snap1', fragmentSchema: fragmentSchema(hole, null) }))).toContain('rollback_checkpoint');
    expect(names(view({ state: 'ACTION_PENDING', pending, fragmentSchema: fragmentSchema(hole, null) }))).not.toContain('submit_cdsl_fragment');
    expect(names(view({ state: 'ACTION_PENDING', pending, inspectedSnapshotId: 'snap1', fragmentSchema: fragmentSchema(hole, null) }))).toContain('submit_cdsl_fragment');
    expect(names(view({ state: 'ACTION_PENDING', pending: { ...pending, contractHash: null }, inspectedSnapshotId: 'snap1' }))).not.toContain('submit_cdsl_fragment');
    for (const state of ['CANDIDATE_BUILDING', 'WAITING_RETRY', 'WAITING_FOR_USER', 'COMPLETED', 'FAILED'] as const) expect(names(view({ state }))).toEqual([]);
  });

  it('exports every exposed tool as a closed JSON Schema that ajv compiles (a compact claim `expected` is open only in the offered view)', () => {
    const pending = { atomicId: 'hole', contractHash: 'ch_1', needsSnapshot: true };
    for (const state of TASK_STATES) {
      for (const tool of exposedTools(view({ state, pending, inspectedSnapshotId: 'snap1', fragmentSchema: fragmentSchema(hole, null) }), check)) {
        const open = openSchemaPaths(tool.parameters).filter((p) => !p.includes('fragment') && !/acceptance_claims\[\]\.expected:/.test(p));
        expect(open, tool.name).toEqual([]);
        expect(() => validator.compile(tool.parameters), tool.name).not.toThrow();
        if (tool.canonicalParameters) expect(openSchemaPaths(tool.canonicalParameters), tool.name).toEqual([]);
      }
    }
  });

  it('offers claim kinds as an enum with one-line summaries (on the first read) and validates expected values on the closed oneOf from the verifier registry', () => {
    const batch = exposedTools(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [] }), check).find((t) => t.name === 'submit_requirements_draft_batch');
    if (!batch) throw new Error('draft batch not exposed');
    const [firstRead] = exposedTools(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [], claimSchemasRead: false }), check);
    const offered = JSON.stringify(batch.parameters);
    const canonical = JSON.stringify(batch.canonicalParameters);
    for (const v of ALL_VERIFIERS) {
      expect(offered).toContain(`"${v.kind}"`);
      expect(firstRead?.description).toContain(`${v.kind}: ${v.summary}`);
      expect(batch.description).not.toContain(`${v.kind}: ${v.summary}`);
      expect(canonical).toContain(`"const":"${v.kind}"`);
    }
    expect(offered.length).toBeLessThan(canonical.length / 4);
    const item = { source_ids: ['src_001'], statement: 'one solid', assumptions: [], acceptance_claims: [{ claim_kind: 'solid_count_equals', expected: { count: 1 } }] };
    expect(validateRawArguments(batch, JSON.stringify({ items: [item] })).ok).toBe(true);
    const wrong = { ...item, acceptance_claims: [{ claim_kind: 'solid_count_equals', expected: { count: 1, extra: true } }] };
    expect(validateRawArguments(batch, JSON.stringify({ items: [wrong] })).ok).toBe(false);
    expect(validateRawArguments(batch, JSON.stringify({ items: [{ ...item, acceptance_claims: [{ claim_kind: 'solid_count_equals', expected: {} }] }] })).ok).toBe(false);
    expect(validateRawArguments(batch, JSON.stringify({ items: Array.from({ length: 9 }, () => item) })).ok).toBe(false);
    expect(validateRawArguments(batch, JSON.stringify({ items: [{ ...item, source_ids: ['src_999'] }] })).ok).toBe(false);
  });

  it('accepts a drafting call exactly when its claims satisfy the full closed oneOf', () => {
    const batch = exposedTools(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [] }), check).find((t) => t.name === 'submit_requirements_draft_batch');
    if (!batch?.canonicalParameters) throw new Error('draft batch has no canonical schema');
    const canonical = batch.canonicalParameters;
    const kinds = ALL_VERIFIERS.map((v) => v.kind);
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.jsonValue(), (kind, expected) => {
        const value = { items: [{ source_ids: ['src_001'], statement: 'a claim', assumptions: [], acceptance_claims: [{ claim_kind: kind, expected }] }] };
        expect(validateRawArguments(batch, JSON.stringify(value)).ok).toBe(check(canonical, value, '').length === 0);
      }),
    );
  });

  it('reads claim kinds on demand only by their enum, without duplicates', () => {
    const read = exposedTools(view({ state: 'DRAFTING_REQUIREMENTS', draftIds: [] }), check).find((t) => t.name === 'get_claim_schema');
    if (!read) throw new Error('get_claim_schema not exposed');
    expect(validateRawArguments(read, JSON.stringify({ claim_kinds: ['solid_count_equals', 'bbox_dimension_mm'] })).ok).toBe(true);
    expect(validateRawArguments(read, JSON.stringify({ claim_kinds: ['solid_count_equals', 'solid_count_equals'] })).ok).toBe(false);
    expect(validateRawArguments(read, JSON.stringify({ claim_kinds: ['made_up_kind'] })).ok).toBe(false);
    expect(validateRawArguments(read, JSON.stringify({ claim_kinds: [] })).ok).toBe(false);
  });

  it('writes the sketch shape schema once in the extrude fragment tool and still validates outer and inner loops against it', () => {
    const extrude = ALL_CONTRACTS.find((c) => c.atomic_id === 'extrude');
    if (!extrude) throw new Error('extrude contract missing');
    const tool = submitFragmentTool({ head: 'h1', contractHash: 'ch_1', snapshotId: null, fragmentSchema: fragmentSchema(extrude, null), check });
    const text = JSON.stringify(tool.parameters);
    expect(text.match(/"rounded_rectangle"/g)).toHaveLength(1);
    expect(text.length).toBeLessThan(5000);
    const sketch = { workplane: { origin: [0, 0, 0], normal: [0, 0, 1], x_dir: [1, 0, 0] }, profile: { outer: { type: 'rectangle', center: [0, 0], width_mm: 100, height_mm: 60 }, inner: [{ type: 'circle', center: [0, 0], diameter_mm: 10 }] } };
    const call = (s: unknown) => JSON.stringify({ working_head: 'h1', contract_hash: 'ch_1', snapshot_id: null, fragment: { feature: { atomic_id: 'extrude', params: { extent: { kind: 'one_sided', distance_mm: 8, reverse: false }, body: 'new_body' } }, sketch: s } });
    expect(validateRawArguments(tool, call(sketch)).ok).toBe(true);
    expect(validateRawArguments(tool, call({ ...sketch, profile: { ...sketch.profile, inner: [{ type: 'ellipse', center: [0, 0] }] } })).ok).toBe(false);
    expect(validateRawArguments(tool, call({ ...sketch, profile: { outer: { type: 'circle', center: [0, 0, 0], diameter_mm: 10 } } })).ok).toBe(false);
  });

  it('asks the final reviewer for exactly one verdict with evidence per visual claim', () => {
    const final = exposedTools(view({ state: 'FINAL_VALIDATION', visualClaimIds: ['claim_002'] }), check).find((t) => t.name === 'review_final');
    if (!final) throw new Error('review_final not exposed');
    const base = { revision_id: 'rev_002', verdict: 'accept', claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }, { claim_id: 'claim_002', status: 'unverified' }], evidence: [], issues: [] };
    const verdict = { claim_id: 'claim_002', verdict: 'pass', evidence: 'the rib is visible in the side view' };
    expect(validateRawArguments(final, JSON.stringify({ ...base, visual_verdicts: [verdict] })).ok).toBe(true);
    expect(validateRawArguments(final, JSON.stringify(base)).ok).toBe(false);
    expect(validateRawArguments(final, JSON.stringify({ ...base, visual_verdicts: [{ ...verdict, claim_id: 'claim_001' }] })).ok).toBe(false);
    expect(validateRawArguments(final, JSON.stringify({ ...base, visual_verdicts: [{ claim_id: 'claim_002', verdict: 'pass' }] })).ok).toBe(false);
  });

  it('rejects unknown fields, bad JSON, oversized and too deep arguments on the raw string', () => {
    const propose = exposedTools(view({ state: 'AWAITING_ACTION' }), check).find((t) => t.name === 'propose_next_action');
    if (!propose) throw new Error('propose_next_action not exposed');
    const good = { working_head: 'head_000000000001', intent: 'base plate', requirement_ids: ['req_001'], atomic_id: 'extrude', expected_change: 'a 100 x 60 x 10 plate' };
    expect(validateRawArguments(propose, JSON.stringify(good)).ok).toBe(true);
    expect(validateRawArguments(propose, JSON.stringify({ ...good, params: {} })).ok).toBe(false);
    expect(validateRawArguments(propose, JSON.stringify({ ...good, atomic_id: 'shell' })).ok).toBe(false);
    expect(validateRawArguments(propose, '{"working_head": ').ok).toBe(false);
    expect(validateRawArguments(propose, JSON.stringify({ ...good, intent: 'x'.repeat(70_000) })).ok).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 30; i += 1) deep = [deep];
    expect(validateRawArguments(propose, JSON.stringify({ ...good, intent: deep })).ok).toBe(false);
    expect(staleBindings({ ...good, working_head: 'head_000000000000' }, propose)).toEqual(['working_head']);
    expect(staleBindings(good, propose)).toEqual([]);
  });

  it('never accepts arbitrary JSON for propose_next_action unless it is exactly a valid proposal', () => {
    const propose = exposedTools(view({ state: 'AWAITING_ACTION' }), check).find((t) => t.name === 'propose_next_action');
    if (!propose) throw new Error('propose_next_action not exposed');
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = validateRawArguments(propose, JSON.stringify(value));
        if (result.ok) expect(Object.keys(result.value as object).sort()).toEqual(['atomic_id', 'expected_change', 'intent', 'requirement_ids', 'working_head']);
      }),
    );
  });

  it('requires exactly one coverage row per claim from reviewers', () => {
    const review = exposedTools(view({ state: 'CANDIDATE_REVIEW' }), check)[0];
    if (!review) throw new Error('review_candidate not exposed');
    const base = { candidate_id: 'cand_001', working_head: 'head_000000000001', verdict: 'accept', evidence: [], issues: [] };
    expect(validateRawArguments(review, JSON.stringify({ ...base, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }, { claim_id: 'claim_002', status: 'pending' }] })).ok).toBe(true);
    expect(validateRawArguments(review, JSON.stringify({ ...base, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }] })).ok).toBe(false);
    expect(validateRawArguments(review, JSON.stringify({ ...base, claim_coverage: [{ claim_id: 'claim_001', status: 'pass' }, { claim_id: 'claim_001', status: 'pass' }] })).ok).toBe(false);
  });
});

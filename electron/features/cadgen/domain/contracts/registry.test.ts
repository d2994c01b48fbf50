import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSchemaPaths } from '../closedSchema';
import { ALL_VERIFIERS } from '../verifiers/registry';
import { ALL_CONTRACTS, buildContractRegistry, contractProblems } from './registry';
import { closedObject, num } from './schemaParts';
import type { JsonSchema } from './schemaParts';
import type { OperationContract } from './types';

const kinds = new Set(ALL_VERIFIERS.map((v) => v.kind));
const executable = new Set(ALL_CONTRACTS.map((c) => c.atomic_id));
const hole = ALL_CONTRACTS.find((c) => c.atomic_id === 'hole') as OperationContract;

describe('operation contract registry', () => {
  it('offers every minimum operation with a complete, closed contract', () => {
    const { offered, rejected } = buildContractRegistry(ALL_CONTRACTS, kinds, executable);
    expect(rejected).toEqual([]);
    expect([...offered.keys()].sort()).toEqual(
      ['chamfer', 'extrude', 'extrude_cut_blind', 'extrude_cut_through', 'fillet', 'hole', 'mirror', 'pattern_circular', 'pattern_linear', 'revolve', 'shell'].sort(),
    );
  });

  it('does not offer an operation the runtime cannot execute', () => {
    const { offered, rejected } = buildContractRegistry(ALL_CONTRACTS, kinds, new Set(['extrude']));
    expect([...offered.keys()]).toEqual(['extrude']);
    expect(rejected.find((r) => r.atomic_id === 'hole')?.problems).toContain('hole: the runtime has no executor for this operation');
  });

  it('refuses a contract whose nested params object is open', () => {
    const open = { ...hole, author_params_schema: { ...hole.author_params_schema, properties: { ...(hole.author_params_schema.properties as object), extra: { type: 'object', properties: {} } } } };
    expect(contractProblems(open, kinds, executable).some((p) => p.includes('$.extra: additionalProperties is not false'))).toBe(true);
  });

  it('refuses unknown preflights, unknown verifiers and duplicate ids', () => {
    const broken = { ...hole, semantic_preflight: ['no_such_check'], candidate_verifiers: ['no_such_claim'] };
    const problems = contractProblems(broken, kinds, executable);
    expect(problems).toContain('hole: unknown preflight no_such_check');
    expect(problems).toContain('hole: unknown verifier no_such_claim');
    expect(buildContractRegistry([hole, hole], kinds, executable).rejected[0]?.problems).toContain('hole: duplicate atomic_id');
  });

  it('refuses a server-injected path that the author could write', () => {
    const writable = { ...hole, author_params_schema: { ...hole.author_params_schema, properties: { ...(hole.author_params_schema.properties as object), host_face: num(0, 1) } } };
    expect(contractProblems(writable, kinds, executable)).toContain('hole: injected path params.host_face is writable by the author');
  });

  it('refuses a selector policy that disagrees with the author schema', () => {
    const slot = hole.selector_policy[0] as OperationContract['selector_policy'][number];
    const wrongKind = { ...hole, selector_policy: [{ ...slot, token_kind: 'edge' as const }] };
    expect(contractProblems(wrongKind, kinds, executable)).toContain('hole: selector slot host_face_token does not match its author schema');
  });
});

/** Random closed schemas: nested closed objects, tuples and bounded numbers. */
const closedSchema: fc.Arbitrary<JsonSchema> = fc.letrec<{ node: JsonSchema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(num(-1, 1)),
    fc.constant({ type: 'boolean' }),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie('node'), { maxKeys: 3 }).map((properties) => closedObject(properties)),
    tie('node').map((items) => ({ type: 'array', items, maxItems: 4 })),
  ),
})).node;

function openAt(schema: JsonSchema, choice: number): JsonSchema {
  if (schema.type === 'object') {
    const entries = Object.entries(schema.properties as Record<string, JsonSchema>);
    const target = entries[choice % Math.max(entries.length, 1)];
    if (!target) return { ...schema, additionalProperties: true };
    return { ...schema, properties: { ...(schema.properties as object), [target[0]]: openAt(target[1], choice + 1) } };
  }
  if (schema.type === 'array') return { ...schema, items: openAt(schema.items as JsonSchema, choice) };
  return schema.type === 'number' ? { type: 'number' } : { type: 'string' };
}

describe('closed-schema check', () => {
  it('accepts every generated closed schema', () => {
    fc.assert(fc.property(closedSchema, (schema) => openSchemaPaths(schema).length === 0));
  });

  it('finds the one place where a generated schema was opened', () => {
    fc.assert(fc.property(closedSchema, fc.nat(), (schema, choice) => openSchemaPaths(openAt(schema, choice)).length > 0));
  });
});

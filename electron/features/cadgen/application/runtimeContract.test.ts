import { describe, expect, it } from 'vitest';
import type { BuildOutcome } from '../ports/cadRuntime';
import { assertBuildOutcome, assertStepInspection, buildOutcomeViolations } from './runtimeContract';

const all = { step: true, meshes: true, projections: true };
const snapshot = { snapshot_id: 's1' } as unknown as BuildOutcome['snapshot'];
const good: BuildOutcome = {
  engine_version: 'occt', ok: true, features: [{ id: 'F1', atomic_id: 'extrude', status: 'built' }], snapshot, step: 'ISO-10303-21;', meshes: [], edge_lines: [], projections: [],
  timings_ms: { build: 1, snapshot: 1 }, memory: { wasm_heap_bytes: 0, live_objects: 0, released_objects: 0 },
};

describe('the CadRuntime contract of a build outcome', () => {
  it('accepts a built outcome with every output it was asked for, and a reported feature failure without outputs', () => {
    expect(buildOutcomeViolations(good, all)).toEqual([]);
    const failed: BuildOutcome = { ...good, ok: false, features: [{ id: 'F1', atomic_id: 'extrude', status: 'failed' }], snapshot: null, step: undefined as never };
    expect(buildOutcomeViolations(failed, all)).toEqual([]);
    expect(buildOutcomeViolations({ ...good, step: undefined as never }, { step: false, meshes: true, projections: true })).toEqual([]);
  });

  it('names each broken promise: ok without a topology, a missing requested STEP, ok although a feature failed', () => {
    expect(buildOutcomeViolations({ ...good, snapshot: null }, all)).toEqual(['a built body without a topology snapshot']);
    expect(buildOutcomeViolations({ ...good, step: undefined as never }, all)).toEqual(['the STEP export that was asked for is missing']);
    expect(buildOutcomeViolations({ ...good, features: [{ id: 'F1', atomic_id: 'extrude', status: 'failed' }] }, all)[0]).toMatch(/ok is true/);
    expect(() => assertBuildOutcome({ ...good, projections: undefined as never }, all)).toThrow(expect.objectContaining({ code: 'CDSL_RUNTIME_CONTRACT_INVALID', retryable: false }));
  });

  it('refuses a STEP inspection that is not a count, a volume and a verdict', () => {
    expect(() => assertStepInspection({ solid_count: 1, volume_mm3: 10, valid: true })).not.toThrow();
    expect(() => assertStepInspection({ solid_count: Number.NaN, volume_mm3: 10, valid: true })).toThrow(expect.objectContaining({ code: 'CDSL_RUNTIME_CONTRACT_INVALID' }));
    expect(() => assertStepInspection(null as never)).toThrow(expect.objectContaining({ code: 'CDSL_RUNTIME_CONTRACT_INVALID' }));
  });
});

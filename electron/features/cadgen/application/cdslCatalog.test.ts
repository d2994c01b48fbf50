import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS } from '../domain/contracts/registry';
import { inlineLocalRefs, point2 } from '../domain/contracts/schemaParts';
import { mintToken } from '../domain/topology';
import type { TopologySnapshot } from '../domain/topology';
import { createCdslCatalog } from './cdslCatalog';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const catalog = createCdslCatalog(new Set(ALL_CONTRACTS.map((c) => c.atomic_id)));
const snapshotId = sha('revision-1');
const faceToken = mintToken(sha, snapshotId, 'face', 'top');
const edgeToken = mintToken(sha, snapshotId, 'edge', 'rim');
const featureToken = mintToken(sha, snapshotId, 'feature', 'F1|extrude');
const snapshot: TopologySnapshot = {
  snapshot_id: snapshotId,
  faces: [{ token: faceToken, index: 0, kind: 'plane', area_mm2: 1, centroid: [0, 0, 10], bbox: { min: [-5, -5, 10], max: [5, 5, 10] }, normal: [0, 0, 1], adjacent_faces: [] }],
  edges: [{ token: edgeToken, index: 0, kind: 'line', length_mm: 10, start: [0, 0, 0], end: [10, 0, 0], adjacent_faces: [0] }],
  features: [{ token: featureToken, feature_id: 'F1', atomic_id: 'extrude', mode: 'add' }],
  measurements: { solid_count: 1, volume_mm3: 1, area_mm2: 1, bbox: { min: [-5, -5, 0], max: [5, 5, 10] } },
};
const staleFace = mintToken(sha, sha('revision-0'), 'face', 'top');
const sketch = { workplane: { origin: [0, 0, 10], normal: [0, 0, 1], x_dir: [1, 0, 0] }, profile: { outer: { type: 'circle', center: [0, 0], diameter_mm: 4 } } };

/** One valid fragment per operation, written as an author would. */
const VALID: Record<string, { sketch?: unknown; params: Record<string, unknown> }> = {
  extrude: { sketch, params: { extent: { kind: 'symmetric', distance_mm: 5 }, body: 'join' } },
  revolve: { sketch: { ...sketch, workplane: { origin: [0, 0, 0], normal: [0, -1, 0], x_dir: [1, 0, 0] } }, params: { axis: { origin: [0, 0, 0], direction: [0, 0, 1] }, angle_deg: 180, body: 'new_body' } },
  extrude_cut_blind: { sketch, params: { distance_mm: 3, reverse: true } },
  extrude_cut_through: { sketch, params: { direction: 'both' } },
  hole: { params: { host_face_token: faceToken, positions_mm: [[1, 1, 10], [-1, -1, 10]], diameter_mm: 2, extent: { kind: 'blind', depth_mm: 4 }, style: { kind: 'countersink', diameter_mm: 4, angle_deg: 90 } } },
  fillet: { params: { edge_tokens: [edgeToken], radius_mm: 1 } },
  chamfer: { params: { edge_tokens: [edgeToken], distance_mm: 1 } },
  shell: { params: { face_tokens: [faceToken], thickness_mm: 1 } },
  pattern_linear: { params: { source_feature_token: featureToken, direction: [1, 0, 0], spacing_mm: 10, count: 3 } },
  pattern_circular: { params: { source_feature_token: featureToken, axis: { origin: [0, 0, 0], direction: [0, 0, 1] }, count: 6, total_angle_deg: 360 } },
  mirror: { params: { source_feature_token: featureToken, plane: { origin: [0, 0, 0], normal: [1, 0, 0] } } },
};
const fragment = (atomicId: string, change: (f: { sketch?: unknown; params: Record<string, unknown> }) => unknown = (f) => f): unknown => {
  const base = structuredClone(VALID[atomicId] as { sketch?: unknown; params: Record<string, unknown> });
  const { sketch: s, params } = change(base) as { sketch?: unknown; params?: unknown };
  return { ...(s !== undefined ? { sketch: s } : {}), feature: { atomic_id: atomicId, ...(params !== undefined ? { params } : {}) } };
};
const code = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe.each(Object.keys(VALID))('the %s fragment contract', (atomicId) => {
  const validate = (raw: unknown) => catalog.validateFragment(raw, atomicId, snapshot, 1);
  const firstParam = Object.keys(VALID[atomicId]?.params ?? {})[0] as string;

  it('accepts the valid fixture and assigns the positional feature id', () => {
    expect(validate(fragment(atomicId))).toMatchObject({ id: 'F2', atomic_id: atomicId });
  });

  it('rejects a missing required param', () => {
    expect(code(() => validate(fragment(atomicId, (f) => ({ ...f, params: Object.fromEntries(Object.entries(f.params).slice(1)) }))))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('rejects an extra param that belongs to another operation', () => {
    expect(code(() => validate(fragment(atomicId, (f) => ({ ...f, params: { ...f.params, depth_mm: 3 } }))))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('rejects a wrongly typed param', () => {
    expect(code(() => validate(fragment(atomicId, (f) => ({ ...f, params: { ...f.params, [firstParam]: 'seven' } }))))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('rejects a sketch where the contract forbids one, or its absence where it requires one', () => {
    const contract = catalog.contracts.get(atomicId);
    const flipped = contract?.fragment_shape.sketch === 'required' ? (f: { params: unknown }) => ({ params: f.params }) : (f: { params: unknown }) => ({ ...f, sketch });
    expect(code(() => validate(fragment(atomicId, flipped)))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('rejects a fragment whose atomic_id differs from the pending operation', () => {
    const other = atomicId === 'extrude' ? 'revolve' : 'extrude';
    expect(code(() => catalog.validateFragment(fragment(atomicId), other, snapshot, 1))).toBe('CDSL_SCHEMA_INVALID');
  });
});

describe('token slots in fragments', () => {
  it('reject a token of the wrong kind in a selector slot', () => {
    expect(code(() => catalog.validateFragment(fragment('fillet', (f) => ({ params: { ...f.params, edge_tokens: [faceToken] } })), 'fillet', snapshot, 1))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('report a token from an earlier revision as a stale snapshot', () => {
    expect(code(() => catalog.validateFragment(fragment('hole', (f) => ({ params: { ...f.params, host_face_token: staleFace } })), 'hole', snapshot, 1))).toBe('CDSL_STALE_SNAPSHOT');
  });

  it('refuse the server-injected host_face when an author supplies it', () => {
    expect(code(() => catalog.validateFragment(fragment('hole', (f) => ({ params: { ...f.params, host_face: { index: 0 } } })), 'hole', snapshot, 1))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('offers only current tokens in the dynamic schema and nothing before the first snapshot', () => {
    const bound = JSON.stringify(catalog.fragmentSchema('hole', snapshot));
    expect(bound).toContain(faceToken);
    expect(JSON.stringify(catalog.fragmentSchema('hole', null))).toContain('"not":{}');
  });

  it('rejects any unknown top-level key added to any valid fragment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(VALID)), fc.stringMatching(/^[a-z_]{1,12}$/), (atomicId, key) => {
        fc.pre(!['sketch', 'feature'].includes(key));
        const raw = { ...(fragment(atomicId) as object), [key]: 1 };
        return code(() => catalog.validateFragment(raw, atomicId, snapshot, 1)) === 'CDSL_SCHEMA_INVALID';
      }),
    );
  });

  it('rejects any non-finite-range number in a numeric param', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(1e12), fc.constant(-1), fc.constant(0)), (value) => {
        const raw = fragment('fillet', (f) => ({ params: { ...f.params, radius_mm: value } }));
        return code(() => catalog.validateFragment(raw, 'fillet', snapshot, 1)) === 'CDSL_SCHEMA_INVALID';
      }),
    );
  });
});

describe('document validation', () => {
  const doc = { cdsl_version: '3.0', units: 'mm', name: 'part', features: [{ id: 'F1', atomic_id: 'extrude', ...VALID.extrude, params: { extent: { kind: 'one_sided', distance_mm: 5, reverse: false }, body: 'new_body' } }] };

  it('accepts a valid document', () => {
    expect(catalog.validateDocument(doc).features).toHaveLength(1);
  });

  it('rejects non-positional ids, unknown operations, wrong units and unknown keys', () => {
    expect(code(() => catalog.validateDocument({ ...doc, features: [{ ...doc.features[0], id: 'F7' }] }))).toBe('CDSL_SCHEMA_INVALID');
    expect(code(() => catalog.validateDocument({ ...doc, features: [{ ...doc.features[0], atomic_id: 'loft' }] }))).toBe('CDSL_CONTRACT_UNKNOWN');
    expect(code(() => catalog.validateDocument({ ...doc, units: 'inch' }))).toBe('CDSL_SCHEMA_INVALID');
    expect(code(() => catalog.validateDocument({ ...doc, author: 'x' }))).toBe('CDSL_SCHEMA_INVALID');
  });

  it('lists issues with their paths', () => {
    try {
      catalog.validateDocument({ ...doc, features: [{ ...doc.features[0], params: { extent: { kind: 'one_sided', distance_mm: -5, reverse: false }, body: 'new_body' } }] });
      expect.unreachable();
    } catch (error) {
      expect((error as { data: { issues: { path: string }[] } }).data.issues[0]?.path).toContain('/features/F1/params/extent');
    }
  });
});

describe('shared coordinate parts in fragment schemas', () => {
  const arbitraryPoint = fc.array(fc.oneof(fc.double({ min: -200_000, max: 200_000, noNaN: true }), fc.constant('x')), { minLength: 1, maxLength: 4 });

  it('keeps each repeated coordinate tuple once under $defs and accepts and refuses exactly what the written-out schema does (property)', () => {
    const extrude = catalog.fragmentSchema('extrude', null);
    expect(Object.keys(extrude.$defs as object).sort()).toEqual(['point2', 'profile_shape', 'vec3']);
    expect(JSON.stringify(extrude).split(JSON.stringify(point2)).length - 1).toBe(1);
    const inlined = inlineLocalRefs(extrude);
    fc.assert(
      fc.property(arbitraryPoint, arbitraryPoint, arbitraryPoint, (origin, centre, to) => {
        const fragment = { feature: { atomic_id: 'extrude', params: { extent: { kind: 'symmetric', distance_mm: 5 }, body: 'join' } }, sketch: { workplane: { origin, normal: [0, 0, 1], x_dir: [1, 0, 0] }, profile: { outer: { type: 'polyline', start: centre, segments: [{ type: 'line', to }, { type: 'line', to: [0, 0] }] } } } };
        expect(catalog.validator.issues(extrude, fragment, '').length === 0).toBe(catalog.validator.issues(inlined, fragment, '').length === 0);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveToken } from './selectors';
import { mintToken, parseToken } from './topology';
import type { FaceInfo, TopologySnapshot } from './topology';

// A deterministic stand-in digest: the domain only needs hex text of enough length.
const digest = (text: string): string => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return (h.toString(16).padStart(8, '0') + ((h ^ 0x9e3779b9) >>> 0).toString(16).padStart(8, '0')).repeat(2);
};
const snapshotId = 'a1b2c3d4'.repeat(8);
const face = (token: string, index: number): FaceInfo => ({ token, index, kind: 'plane', area_mm2: 1, centroid: [0, 0, 0], bbox: { min: [0, 0, 0], max: [1, 1, 0] }, normal: [0, 0, 1], adjacent_faces: [] });
const snapshot = (faces: FaceInfo[]): TopologySnapshot => ({ snapshot_id: snapshotId, faces, edges: [], features: [], measurements: { solid_count: 1, volume_mm3: 1, area_mm2: 1, bbox: { min: [0, 0, 0], max: [1, 1, 1] } } });

describe('selector tokens', () => {
  it('round-trip kind and snapshot tag through mint and parse for any signature', () => {
    fc.assert(
      fc.property(fc.constantFrom('face' as const, 'edge' as const, 'feature' as const), fc.string(), (kind, signature) => {
        const token = mintToken(digest, snapshotId, kind, signature);
        expect(parseToken(token)).toEqual({ kind, snapshotTag: snapshotId.slice(0, 8) });
      }),
    );
  });

  it('never parses arbitrary strings that are not token-shaped', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^(fc|ed|ft)_[0-9a-f]{20}$/.test(text));
        return parseToken(text) === null;
      }),
    );
  });

  it('resolves a unique face token to its face', () => {
    const token = mintToken(digest, snapshotId, 'face', 'top');
    expect(resolveToken(snapshot([face(token, 0)]), token, 'face', 'slot').index).toBe(0);
  });

  it('reports a token from another revision as a stale snapshot', () => {
    const token = mintToken(digest, 'ffffffff'.repeat(8), 'face', 'top');
    expect(() => resolveToken(snapshot([face(token, 0)]), token, 'face', 'slot')).toThrow(expect.objectContaining({ code: 'CDSL_STALE_SNAPSHOT' }));
  });

  it('reports a well-formed token of this revision that names nothing as not found', () => {
    const token = mintToken(digest, snapshotId, 'face', 'nowhere');
    expect(() => resolveToken(snapshot([]), token, 'face', 'slot')).toThrow(expect.objectContaining({ code: 'CDSL_SELECTOR_NOT_FOUND' }));
  });

  it('refuses to pick one of two faces that share a token', () => {
    const token = mintToken(digest, snapshotId, 'face', 'twin');
    expect(() => resolveToken(snapshot([face(token, 0), face(token, 1)]), token, 'face', 'slot')).toThrow(expect.objectContaining({ code: 'CDSL_SELECTOR_AMBIGUOUS' }));
  });

  it('rejects an edge token in a face slot as a schema error', () => {
    const token = mintToken(digest, snapshotId, 'edge', 'e');
    expect(() => resolveToken(snapshot([]), token, 'face', 'slot')).toThrow(expect.objectContaining({ code: 'CDSL_SCHEMA_INVALID' }));
  });

  it('treats any token as stale before the first snapshot exists', () => {
    const token = mintToken(digest, snapshotId, 'face', 'top');
    expect(() => resolveToken(null, token, 'face', 'slot')).toThrow(expect.objectContaining({ code: 'CDSL_STALE_SNAPSHOT' }));
  });
});

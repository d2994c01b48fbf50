import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annotationText, completeFinding, findingId, shortIdsInText } from './finding';

const handle = fc.stringMatching(/^[0-9A-F]{1,6}$/);
const base = { drawingFingerprint: 'f'.repeat(64), frameId: 'F1', checklistItemId: 'GEO-001' };

describe('findingId', () => {
  it('does not depend on the order in which entity handles were reported', () => {
    fc.assert(
      fc.property(fc.uniqueArray(handle, { minLength: 1, maxLength: 8 }), (handles) => {
        const location = { kind: 'point' as const, point: { x: 1, y: 2 } };
        expect(findingId({ ...base, handles, location })).toBe(findingId({ ...base, handles: [...handles].reverse(), location }));
      }),
    );
  });

  it('ignores floating noise far below the drawing precision when no handle identifies the finding', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 }), fc.double({ min: -1e-7, max: 1e-7, noNaN: true }), (x, y, noise) => {
        const at = (dx: number) => ({ kind: 'point' as const, point: { x: x / 10 + dx, y: y / 10 } });
        expect(findingId({ ...base, handles: [], location: at(noise) })).toBe(findingId({ ...base, handles: [], location: at(0) }));
      }),
    );
  });

  it('separates findings of different drawings, frames, items and discriminators', () => {
    const location = { kind: 'point' as const, point: { x: 0, y: 0 } };
    const ids = new Set([
      findingId({ ...base, handles: [], location }),
      findingId({ ...base, drawingFingerprint: 'e'.repeat(64), handles: [], location }),
      findingId({ ...base, frameId: 'F2', handles: [], location }),
      findingId({ ...base, frameId: null, handles: [], location }),
      findingId({ ...base, checklistItemId: 'GEO-002', handles: [], location }),
      findingId({ ...base, handles: [], location, discriminator: 'revision' }),
    ]);
    expect(ids.size).toBe(6);
  });
});

describe('annotation text', () => {
  it('carries the short id so a re-run can recognise the annotation', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{8}$/), fc.string(), (shortId, text) => {
        expect(shortIdsInText(annotationText(shortId, text))).toContain(shortId);
      }),
    );
  });

  it('puts the arrow tip of the proposed leader at the finding location', () => {
    const finding = completeFinding(
      { frameId: 'F1', checklistItemId: 'GEO-001', severity: 'minor', source: 'rule', message: 'm', evidenceRefs: [], location: { kind: 'bbox', bbox: { minX: 0, minY: 0, maxX: 10, maxY: 20 } }, handles: ['A'], annotationText: 't' },
      'f'.repeat(64),
      5,
    );
    expect(finding.proposedAnnotation.anchor).toEqual({ x: 5, y: 10 });
    expect(finding.proposedAnnotation.textAt).toEqual({ x: 10, y: 15 });
    expect(finding.shortId).toBe(finding.id.slice(0, 8));
  });
});

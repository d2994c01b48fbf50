import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { primitiveBox } from './bounds';
import { buildDocument } from './documentLoader';
import { applyPlan, arbitraryAxis, ocsToWcs, planMap, type Vec3 } from './ocs';
import { placeOcsGeometry } from './ocsPlacement';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

const FIXTURE = join(__dirname, '../../../testSupport/fixtures/dxf/ezdxf_ocs_extrusions.dxf');
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const unitNormal = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3)
  .map(([x, y, z]) => ({ x, y, z }));

describe('arbitrary-axis OCS', () => {
  it('is the identity for the default extrusion (0,0,1)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x, y, z) => {
        const p = ocsToWcs(arbitraryAxis({ x: 0, y: 0, z: 1 }), { x, y, z });
        expect([p.x + 0, p.y + 0, p.z + 0]).toEqual([x + 0, y + 0, z + 0]); // +0 folds -0

      }),
    );
  });

  it('gives orthonormal right-handed axes for any extrusion, z along the extrusion', () => {
    fc.assert(
      fc.property(unitNormal, (n) => {
        const { ax, ay, az } = arbitraryAxis(n);
        for (const a of [ax, ay, az]) expect(dot(a, a)).toBeCloseTo(1, 9);
        expect(dot(ax, ay)).toBeCloseTo(0, 9);
        expect(dot(ax, az)).toBeCloseTo(0, 9);
        expect(dot(ay, az)).toBeCloseTo(0, 9);
        const length = Math.hypot(n.x, n.y, n.z);
        expect(az.x).toBeCloseTo(n.x / length, 9);
        expect(az.z).toBeCloseTo(n.z / length, 9);
        // ax × ay = az
        expect(ax.x * ay.y - ax.y * ay.x).toBeCloseTo(az.z, 9);
      }),
    );
  });

  it('maps the extrusion (0,0,-1) to OCS x = -WCS x, as AutoCAD does', () => {
    expect(arbitraryAxis({ x: 0, y: 0, z: -1 })).toMatchObject({ ax: { x: -1, y: 0 }, ay: { x: 0, y: 1 } });
  });

  it('puts the end points of a mapped arc where the OCS end points map to', () => {
    fc.assert(
      fc.property(
        unitNormal,
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.double({ min: 0, max: 359, noNaN: true }),
        fc.double({ min: 1, max: 358, noNaN: true }),
        (n, cx, cy, elevation, radius, startAngle, sweep) => {
          fc.pre(Math.abs(n.z) / Math.hypot(n.x, n.y, n.z) > 0.05); // nearly edge-on arcs degenerate to a line
          const endAngle = startAngle + sweep;
          const m = planMap(arbitraryAxis(n), elevation);
          const g = placeOcsGeometry({ kind: 'arc', center: { x: cx, y: cy }, radius, startAngle, endAngle }, { extrusion: n, elevation });
          const [s0, s1] = [startAngle, endAngle].map((deg) => applyPlan(m, { x: cx + radius * Math.cos((deg * Math.PI) / 180), y: cy + radius * Math.sin((deg * Math.PI) / 180) }));
          const [d0, d1] = arcEnds(g);
          const tolerance = 1e-6 * (radius + Math.abs(cx) + Math.abs(cy) + Math.abs(elevation));
          // a mirrored plane reverses the arc: its drawn start is the OCS end
          const direct = dist(d0!, s0!) < tolerance && dist(d1!, s1!) < tolerance;
          const reversed = dist(d0!, s1!) < tolerance && dist(d1!, s0!) < tolerance;
          expect(direct || reversed).toBe(true);
        },
      ),
    );
  });
});

function dist(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function arcEnds(g: ReturnType<typeof placeOcsGeometry>): { x: number; y: number }[] {
  if (g.kind === 'arc') return [g.startAngle, g.endAngle].map((deg) => ({ x: g.center.x + g.radius * Math.cos((deg * Math.PI) / 180), y: g.center.y + g.radius * Math.sin((deg * Math.PI) / 180) }));
  if (g.kind === 'ellipse') {
    const minor = { x: -g.majorAxis.y * g.ratio, y: g.majorAxis.x * g.ratio };
    return [g.startParam, g.endParam].map((t) => ({ x: g.center.x + g.majorAxis.x * Math.cos(t) + minor.x * Math.sin(t), y: g.center.y + g.majorAxis.y * Math.cos(t) + minor.y * Math.sin(t) }));
  }
  throw new Error(`unexpected ${g.kind}`);
}

describe('OCS entities of an ezdxf drawing', () => {
  // expected boxes: ezdxf 0.18.1 bbox.extents of each entity (printed by generate_ocs_extrusions.py)
  const EZDXF_BOXES: Record<string, [number, number, number, number]> = {
    CIRCLE_NEG: [-12, 3, -8, 7],
    ARC_NEG: [-22.9544, 5.5209, -19.4791, 8.0005],
    ARC_TILT: [-26, 5, -22.8, 9],
    CIRCLE_TILT: [-11, -10.5, -7, -5.5],
    ELLIPSE_NEG: [35.7916, 6.3944, 46.0275, 11.0241],
    LWPOLY_NEG: [-36, 17, -30, 26],
    POLY2D_NEG: [-55, 0, -50, 4],
    SOLID_NEG: [-64, 0, -60, 3],
    HATCH_NEG: [-75, 0, -70, 5],
    HATCH_PATTERN_NEG: [-76, 10, -70, 16],
    INSERT_NEG: [-83.4641, 10, -79, 12],
  };

  it('draws each mirrored or tilted entity inside the box ezdxf computes for it', () => {
    const doc = buildDocument(readTextTags(readFileSync(FIXTURE, 'utf8')), { codePage: 'ANSI_1252' });
    const seen = new Set<string>();
    for (const entity of doc.layouts[0]!.entities) {
      const expected = EZDXF_BOXES[entity.layer];
      if (!expected) continue;
      seen.add(entity.layer);
      const boxes = flattenEntity(doc, entity).map(primitiveBox);
      const box = { minX: Math.min(...boxes.map((b) => b.minX)), minY: Math.min(...boxes.map((b) => b.minY)), maxX: Math.max(...boxes.map((b) => b.maxX)), maxY: Math.max(...boxes.map((b) => b.maxY)) };
      const tolerance = 0.02; // flattened arcs sit inside their true extent by the chord error
      if (entity.layer === 'HATCH_PATTERN_NEG') {
        // pattern lines are clipped to the (mirrored) boundary, which ezdxf's box is
        expect(box.minX).toBeGreaterThan(expected[0] - tolerance);
        expect(box.maxX).toBeLessThan(expected[2] + tolerance);
        expect(box.minY).toBeGreaterThan(expected[1] - tolerance);
        expect(box.maxY).toBeLessThan(expected[3] + tolerance);
        continue;
      }
      expect([entity.layer, box.minX, box.minY, box.maxX, box.maxY].map((v) => (typeof v === 'number' ? Math.round(v / tolerance) : v))).toEqual(
        [entity.layer, ...expected].map((v) => (typeof v === 'number' ? Math.round(v / tolerance) : v)),
      );
    }
    expect([...seen].sort()).toEqual(Object.keys(EZDXF_BOXES).sort());
  });
});

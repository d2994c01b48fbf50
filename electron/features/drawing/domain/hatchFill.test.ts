import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocument } from './documentLoader';
import { hatchPatternSegments } from './hatchFill';
import type { DxfDocument, DxfEntity } from './model';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

function load(entities: string, header = ''): DxfDocument {
  return buildDocument(readTextTags(`0\nSECTION\n2\nHEADER\n${header}0\nENDSEC\n0\nSECTION\n2\nENTITIES\n${entities}0\nENDSEC\n0\nEOF\n`), { codePage: 'ANSI_1252' });
}

/** A 10 × 10 HATCH square (one polyline loop) with the pattern tags given after the boundary. */
const squareHatch = (pattern: string, solid = 0): string =>
  `0\nHATCH\n5\nA1\n8\n0\n10\n0\n20\n0\n30\n0\n2\n${pattern.split('\n')[0]}\n70\n${solid}\n71\n0\n91\n1\n92\n2\n72\n0\n73\n1\n93\n4\n10\n0\n20\n0\n10\n10\n20\n0\n10\n10\n20\n10\n10\n0\n20\n10\n97\n0\n75\n0\n76\n1\n${pattern.split('\n').slice(1).join('\n')}`;

const hatchOf = (doc: DxfDocument): Extract<DxfEntity['geometry'], { kind: 'hatch' }> => {
  const g = doc.layouts[0]!.entities[0]!.geometry;
  if (g.kind !== 'hatch') throw new Error('not a hatch');
  return g;
};

describe('HATCH patterns', () => {
  it('draws the pattern lines the entity stores (a custom pattern), not its boundary', () => {
    // one family: 0°, through (0, 0.5), 1 apart, dashes 2 on / 1 off
    const doc = load(squareHatch('MY_OWN\n52\n0\n41\n1\n77\n0\n78\n1\n53\n0\n43\n0\n44\n0.5\n45\n0\n46\n1\n79\n2\n49\n2\n49\n-1\n98\n0\n'));
    const primitives = flattenEntity(doc, doc.layouts[0]!.entities[0]!);
    expect(primitives.length).toBe(10 * 4); // 10 lines × dashes [0,2] [3,5] [6,8] [9,10]
    expect(primitives.every((p) => p.kind === 'path' && p.points.length === 2 && !p.closed && !p.dashes)).toBe(true);
    expect(hatchOf(doc).pattern).toMatchObject({ name: 'MY_OWN', lines: [{ angle: 0, dashes: [2, -1] }] });
  });

  it('counts pattern pieces against the expansion budget (CAD_DXF_TOO_COMPLEX instead of unbounded output)', () => {
    const doc = load(squareHatch('MY_OWN\n52\n0\n41\n1\n77\n0\n78\n1\n53\n0\n43\n0\n44\n0.5\n45\n0\n46\n1\n79\n2\n49\n2\n49\n-1\n98\n0\n'));
    expect(() => flattenEntity(doc, doc.layouts[0]!.entities[0]!, { budget: 20 })).toThrow(expect.objectContaining({ code: 'CAD_DXF_TOO_COMPLEX' }));
    expect(flattenEntity(doc, doc.layouts[0]!.entities[0]!, { budget: 100 })).toHaveLength(40);
  });

  it('falls back to the acad.pat definition when the entity only names a standard pattern, scaled for a metric drawing', () => {
    const doc = load(squareHatch('ANSI31\n52\n0\n41\n1\n77\n0\n78\n0\n98\n0\n'), '9\n$MEASUREMENT\n70\n1\n');
    const clipped = hatchPatternSegments(doc, hatchOf(doc));
    // 45° lines 3.175 mm apart through the origin: k = −2 … 2 cross a 10 mm square (±7.07 mm across)
    expect(clipped?.complete).toBe(true);
    expect(clipped?.segments.length).toBe(5);
    for (const [a, b] of clipped?.segments ?? []) expect(Math.atan2(b.y - a.y, b.x - a.x) * (180 / Math.PI)).toBeCloseTo(45, 6);
    expect(doc.problems.filter((p) => p.kind.startsWith('hatch'))).toEqual([]);
  });

  it('reports a pattern too dense to draw (tiny scale over a large area) and an unknown one, and draws their boundary', () => {
    const dense = load(squareHatch('ANSI31\n52\n0\n41\n0.00001\n77\n0\n78\n1\n53\n45\n43\n0\n44\n0\n45\n-0.0000001\n46\n0.0000001\n79\n0\n98\n0\n'));
    expect(dense.problems).toContainEqual(expect.objectContaining({ kind: 'hatch_pattern_too_dense' }));
    expect(flattenEntity(dense, dense.layouts[0]!.entities[0]!)).toMatchObject([{ kind: 'path', closed: true, filled: false }]);
    const unknown = load(squareHatch('NOT_IN_ACAD_PAT\n52\n0\n41\n1\n77\n0\n78\n0\n98\n0\n'));
    expect(unknown.problems).toContainEqual(expect.objectContaining({ kind: 'hatch_pattern_unknown' }));
  });

  it('reads a two-colour gradient (450–470) and fills the outline with it', () => {
    const gradient = 'SOLID\n52\n0\n41\n1\n77\n0\n98\n0\n450\n1\n451\n0\n452\n0\n453\n2\n460\n0.5\n461\n0\n462\n1\n463\n0\n63\n5\n421\n255\n463\n1\n63\n2\n421\n16776960\n470\nLINEAR\n';
    const doc = load(squareHatch(gradient, 1));
    expect(hatchOf(doc).gradient).toEqual({ name: 'LINEAR', angle: 0.5, shift: 0, oneColor: false, tint: 1, colors: [{ aci: 5, rgb: 255 }, { aci: 2, rgb: 0xffff00 }] });
    expect(flattenEntity(doc, doc.layouts[0]!.entities[0]!)).toMatchObject([{ kind: 'path', filled: true, gradient: { name: 'LINEAR', colors: [{ rgb: 255 }, { rgb: 0xffff00 }] } }]);
  });

  it('clips the ANSI31 hatch of a real QCAD drawing exactly as ezdxf does (18 segments, 97.353 long)', () => {
    const text = readFileSync(path.resolve('electron/testSupport/fixtures/dxf/mech_flange_layouts.dxf'), 'utf8');
    const doc = buildDocument(readTextTags(text), { codePage: 'UTF-8' });
    const hatch = [...doc.entitiesByHandle.values()].find((e) => e.handle === '114A');
    expect(hatch?.geometry.kind).toBe('hatch');
    const clipped = hatch?.geometry.kind === 'hatch' ? hatchPatternSegments(doc, hatch.geometry) : undefined;
    // reference: ezdxf.render.hatching.hatch_entity on the same entity
    expect(clipped?.segments.length).toBe(18);
    expect(clipped?.segments.reduce((sum, [a, b]) => sum + Math.hypot(b.x - a.x, b.y - a.y), 0)).toBeCloseTo(97.353, 2);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocument } from './documentLoader';
import { polyfaceEdges, polygonMeshEdges, type MeshVertexRecord } from './meshes';
import { mlineEntities, type MlineStyle } from './mlines';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

const grid = (m: number, n: number): MeshVertexRecord[] => Array.from({ length: m * n }, (_, k) => ({ flags: 64, at: { x: k % n, y: Math.floor(k / n) }, indices: [] }));

describe('POLYLINE meshes', () => {
  it('joins an M × N polygon mesh along both directions, wrapping where it is closed', () => {
    expect(polygonMeshEdges(grid(3, 4), 3, 4, 0, 0, false, false)).toHaveLength(3 * 3 + 2 * 4);
    expect(polygonMeshEdges(grid(3, 4), 3, 4, 0, 0, true, true)).toHaveLength(3 * 4 + 3 * 4);
    expect(polygonMeshEdges(grid(2, 2), 3, 4, 0, 0, false, false)).toEqual([]); // fewer vertices than M × N
  });

  it('draws the visible edges of polyface faces once, hiding edges whose start index is negative', () => {
    const positions: MeshVertexRecord[] = [0, 1, 2, 3].map((k) => ({ flags: 192, at: { x: k, y: k * k }, indices: [] }));
    const faces: MeshVertexRecord[] = [
      { flags: 128, at: { x: 0, y: 0 }, indices: [1, 2, -3, 0] },
      { flags: 128, at: { x: 0, y: 0 }, indices: [3, 2, 4, 9] }, // 9 is out of range
    ];
    const edges = polyfaceEdges([...positions, ...faces]);
    // face 1: 1-2, 2-3 (3→1 hidden); face 2: 3-2 (shared, drawn once), 2-4, 4-9 and 9-3 ignored
    expect(edges.map(([a, b]) => [a.x + 1, b.x + 1])).toEqual([
      [1, 2],
      [2, 3],
      [2, 4],
    ]);
  });

  it('reads a polyface POLYLINE with its VERTEX records into edges (no longer a polyline through the positions)', () => {
    const vertex = (flags: number, x: number, y: number, indices = ''): string => `0\nVERTEX\n8\n0\n10\n${x}\n20\n${y}\n70\n${flags}\n${indices}`;
    const body = `0\nPOLYLINE\n8\n0\n66\n1\n70\n64\n71\n3\n72\n1\n${vertex(192, 0, 0)}${vertex(192, 4, 0)}${vertex(192, 0, 3)}${vertex(128, 0, 0, '71\n1\n72\n2\n73\n3\n')}0\nSEQEND\n`;
    const doc = buildDocument(readTextTags(`0\nSECTION\n2\nENTITIES\n${body}0\nENDSEC\n0\nEOF\n`), { codePage: 'ANSI_1252' });
    const mesh = doc.layouts[0]!.entities[0]!;
    expect(mesh.geometry).toMatchObject({ kind: 'mesh', polyface: true });
    const lengths = flattenEntity(doc, mesh).map((p) => (p.kind === 'path' ? Math.hypot(p.points[1]!.x - p.points[0]!.x, p.points[1]!.y - p.points[0]!.y) : 0));
    expect(lengths).toEqual([4, 5, 3]);
  });
});

describe('MLINE', () => {
  const standard: MlineStyle[] = [{ handle: '18', name: 'STANDARD', flags: 16 | 256, elements: [{ offset: 0.5, color: 1, lineType: 'BYLAYER' }, { offset: -0.5, color: 256, lineType: 'DASHED' }] }];
  const parent = { type: 'MLINE', handle: '9', layer: 'WALLS', color: 256, paperSpace: false, tagStart: 0, tagEnd: 0 };
  const vertex = (x: number, y: number, d: number) => ({ at: { x, y }, miter: { x: 0, y: 1 }, params: [[d], [-d]] });

  it('draws one line per style element at the vertex + miter × its parameter, in the element colour, with square caps', () => {
    const g = { kind: 'mline' as const, styleHandle: '18', styleName: 'STANDARD', flags: 1, vertices: [vertex(0, 0, 10), vertex(100, 0, 10)] };
    const lines = mlineEntities({ ...parent, geometry: g }, g, standard);
    expect(lines.map((e) => (e.geometry.kind === 'polyline' ? e.geometry.vertices.map((v) => [v.x, v.y]) : []))).toEqual([
      [
        [0, 10],
        [100, 10],
      ],
      [
        [0, -10],
        [100, -10],
      ],
      [
        [0, 10],
        [0, -10],
      ],
      [
        [100, 10],
        [100, -10],
      ],
    ]);
    expect(lines.map((e) => [e.layer, e.color, e.lineType])).toEqual([
      ['WALLS', 1, 'BYLAYER'],
      ['WALLS', 256, 'DASHED'],
      ['WALLS', 0, 'BYBLOCK'],
      ['WALLS', 0, 'BYBLOCK'],
    ]);
    // closed (71 bit 2): closed element lines, no caps; suppressed caps (bits 4/8) are left out
    expect(mlineEntities({ ...parent, geometry: g }, { ...g, flags: 3 }, standard).map((e) => e.geometry.kind === 'polyline' && e.geometry.closed)).toEqual([true, true]);
    expect(mlineEntities({ ...parent, geometry: g }, { ...g, flags: 1 | 4 | 8 }, standard)).toHaveLength(2);
    expect(mlineEntities({ ...parent, geometry: g }, g, undefined).map((e) => e.color)).toEqual([256, 256]); // STANDARD: no caps
  });
});

const example = path.resolve('../shared/corpus/dxf/libredwg_example_R2018.dxf');
if (!existsSync(example)) process.stdout.write(`[meshes.test] corpus test skipped: ${example} is not present\n`);

describe.skipIf(!existsSync(example))('MLINE, polyface mesh and WIPEOUT of the LibreDWG example drawing', () => {
  it('reads them as ezdxf does: the closed MLINE through 4 vertices with 2 elements, the polyface as 4 edges, the wipeouts as masks', () => {
    const doc = buildDocument(readTextTags(readFileSync(example, 'utf8')), { codePage: 'UTF-8' });
    const mline = doc.entitiesByHandle.get('75C')!;
    expect(mline.geometry).toMatchObject({ kind: 'mline', styleName: 'STANDARD', flags: 3 });
    const mlinePaths = flattenEntity(doc, mline);
    expect(mlinePaths).toHaveLength(2);
    // ezdxf: vertices (3467.903, 1494.545) (3975.226, 1705.813) (4186.611, 1579.052) (3763.841, 1198.769); element 0 runs through them
    const first = mlinePaths[0]!.kind === 'path' ? mlinePaths[0]!.points : [];
    expect(first).toHaveLength(5); // closed: back to the start
    expect(first[0]!.x).toBeCloseTo(3467.903, 2);
    expect(first[4]).toEqual(first[0]);
    const polyface = doc.entitiesByHandle.get('4E4')!;
    expect(polyface.geometry).toMatchObject({ kind: 'mesh', polyface: true });
    expect(flattenEntity(doc, polyface)).toHaveLength(4);
    expect(flattenEntity(doc, doc.entitiesByHandle.get('258')!)).toMatchObject([{ kind: 'path', filled: true, mask: true }]);
  });
});

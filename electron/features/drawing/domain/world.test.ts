import { describe, expect, it } from 'vitest';
import { buildDocument } from './documentLoader';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

function load(tables: string, entities: string) {
  return buildDocument(readTextTags(`0\nSECTION\n2\nTABLES\n${tables}0\nENDSEC\n0\nSECTION\n2\nENTITIES\n${entities}0\nENDSEC\n0\nEOF\n`), { codePage: 'ANSI_1252' });
}

describe('flattenEntity', () => {
  it('draws a LEADER with a closed filled arrowhead at its first vertex, sized by DIMASZ', () => {
    const doc = load('', '0\nLEADER\n8\n0\n10\n0\n20\n0\n10\n10\n20\n0\n');
    const [line, arrow] = flattenEntity(doc, doc.layouts[0]!.entities[0]!);
    expect(line).toMatchObject({ kind: 'path', filled: false });
    expect(arrow).toMatchObject({ kind: 'path', filled: true, closed: true });
    const xs = arrow!.kind === 'path' ? arrow!.points.map((p) => p.x) : [];
    expect(Math.max(...xs)).toBeCloseTo(2.5, 6);
  });

  it('resolves lineweights BYLAYER and keeps the default 0.25 mm implicit; polyline widths ride along', () => {
    const layer = '0\nTABLE\n2\nLAYER\n0\nLAYER\n2\nHEAVY\n70\n0\n62\n7\n370\n70\n0\nENDTAB\n';
    const doc = load(layer, '0\nLINE\n8\nHEAVY\n10\n0\n20\n0\n11\n1\n21\n0\n0\nLINE\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n0\nLWPOLYLINE\n8\n0\n90\n2\n70\n0\n43\n0.5\n10\n0\n20\n0\n10\n5\n20\n0\n');
    const [heavy, plain, wide] = doc.layouts[0]!.entities.map((e) => flattenEntity(doc, e)[0]);
    expect(heavy).toMatchObject({ weight: 0.7 });
    expect(plain && 'weight' in plain).toBe(false);
    expect(wide).toMatchObject({ width: 0.5 });
  });

  it('shows the tag of a free-standing ATTDEF', () => {
    const doc = load('', '0\nATTDEF\n8\n0\n10\n0\n20\n0\n40\n2.5\n1\ndefault\n2\nPART_NO\n');
    expect(flattenEntity(doc, doc.layouts[0]!.entities[0]!)).toMatchObject([{ kind: 'text', text: 'PART_NO' }]);
  });
});

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

  it('gives lines their LTYPE dash pattern scaled by $LTSCALE and the entity scale (48), BYLAYER included', () => {
    const tables = '0\nTABLE\n2\nLTYPE\n0\nLTYPE\n2\nDASHED\n70\n0\n72\n65\n73\n2\n40\n0.75\n49\n0.5\n49\n-0.25\n0\nENDTAB\n0\nTABLE\n2\nLAYER\n0\nLAYER\n2\nHIDDEN\n70\n0\n62\n1\n6\nDASHED\n0\nENDTAB\n';
    const text = `0\nSECTION\n2\nHEADER\n9\n$LTSCALE\n40\n10\n0\nENDSEC\n0\nSECTION\n2\nTABLES\n${tables}0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nLINE\n8\nHIDDEN\n10\n0\n20\n0\n11\n100\n21\n0\n0\nLINE\n8\n0\n6\nDASHED\n48\n2\n10\n0\n20\n0\n11\n100\n21\n0\n0\nLINE\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n0\nENDSEC\n0\nEOF\n`;
    const doc = buildDocument(readTextTags(text), { codePage: 'ANSI_1252' });
    const [byLayer, own, continuous] = doc.layouts[0]!.entities.map((e) => flattenEntity(doc, e)[0]);
    expect(byLayer).toMatchObject({ dashes: [5, -2.5] });
    expect(own).toMatchObject({ dashes: [10, -5] });
    expect(continuous && 'dashes' in continuous).toBe(false);
  });

  it('marks XLINE and RAY paths infinite (the renderer extends them; extents stay finite)', () => {
    const doc = load('', '0\nXLINE\n8\n0\n10\n5\n20\n5\n11\n0\n21\n2\n0\nRAY\n8\n0\n10\n0\n20\n0\n11\n3\n21\n4\n');
    const [xline, ray] = doc.layouts[0]!.entities.map((e) => flattenEntity(doc, e)[0]);
    expect(xline).toMatchObject({ infinite: 'both', points: [{ x: 5, y: 5 }, { x: 5, y: 6 }] });
    expect(ray).toMatchObject({ infinite: 'forward', points: [{ x: 0, y: 0 }, { x: 0.6, y: 0.8 }] });
  });

  it('draws an IMAGE as its frame with the file name of its IMAGEDEF', () => {
    const text = '0\nSECTION\n2\nENTITIES\n0\nIMAGE\n5\n20\n8\n0\n10\n0\n20\n0\n11\n0.1\n21\n0\n12\n0\n22\n0.1\n13\n200\n23\n100\n340\n30\n0\nENDSEC\n0\nSECTION\n2\nOBJECTS\n0\nIMAGEDEF\n5\n30\n1\nC:\\plans\\site photo.jpg\n0\nENDSEC\n0\nEOF\n';
    const doc = buildDocument(readTextTags(text), { codePage: 'ANSI_1252' });
    const [frame, label] = flattenEntity(doc, doc.layouts[0]!.entities[0]!);
    expect(frame).toMatchObject({ kind: 'path', closed: true });
    const xs = frame!.kind === 'path' ? frame!.points.map((p) => p.x) : [];
    expect(Math.min(...xs)).toBeCloseTo(0, 6);
    expect(Math.max(...xs)).toBeCloseTo(20, 6);
    expect(label).toMatchObject({ kind: 'text', text: 'site photo.jpg' });
  });

  it('shows the tag of a free-standing ATTDEF', () => {
    const doc = load('', '0\nATTDEF\n8\n0\n10\n0\n20\n0\n40\n2.5\n1\ndefault\n2\nPART_NO\n');
    expect(flattenEntity(doc, doc.layouts[0]!.entities[0]!)).toMatchObject([{ kind: 'text', text: 'PART_NO' }]);
  });
});

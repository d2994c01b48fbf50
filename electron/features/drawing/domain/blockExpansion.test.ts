import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockExpansion, MAX_EXPANDED_ENTITIES } from './blockExpansion';
import { DrawingIndex } from './bounds';
import { buildDocument } from './documentLoader';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

function load(text: string) {
  return buildDocument(readTextTags(text), { codePage: 'ANSI_1252' });
}

/** A DXF whose block k inserts blocks with lower numbers only (a DAG), each block also holding one LINE. */
function dagDxf(children: number[][]): string {
  const insert = (n: number): string => `0\nINSERT\n8\n0\n2\nK${n}\n10\n1\n20\n2\n30\n0\n`;
  const blocks = children.map((kids, k) => `0\nBLOCK\n8\n0\n2\nK${k}\n70\n0\n10\n0\n20\n0\n30\n0\n0\nLINE\n8\n0\n10\n0\n20\n0\n30\n0\n11\n1\n21\n1\n31\n0\n${kids.map(insert).join('')}0\nENDBLK\n8\n0\n`);
  return `0\nSECTION\n2\nBLOCKS\n${blocks.join('')}0\nENDSEC\n0\nSECTION\n2\nENTITIES\n${insert(children.length - 1)}0\nENDSEC\n0\nEOF\n`;
}

describe('BlockExpansion', () => {
  it('counts exactly the entities a flatten visits, so the budget check before work matches the work', () => {
    const dag = fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, k) => fc.array(fc.integer({ min: 0, max: Math.max(0, k - 1) }), { maxLength: k === 0 ? 0 : 4 }))));
    fc.assert(
      fc.property(dag, (children) => {
        const doc = load(dagDxf(children));
        const root = doc.layouts[0]?.entities[0];
        if (!root) throw new Error('no root insert');
        const count = new BlockExpansion(doc, () => ({ minX: 0, minY: 0, maxX: 0, maxY: 0 })).count(root);
        expect(() => flattenEntity(doc, root, { budget: count })).not.toThrow();
        expect(() => flattenEntity(doc, root, { budget: count - 1 })).toThrow(expect.objectContaining({ code: 'CAD_DXF_TOO_COMPLEX' }));
      }),
      { numRuns: 60 },
    );
  });

  it('gives an over-budget insert a box from its block boxes without expanding it', () => {
    const bomb = ['0\nSECTION\n2\nBLOCKS\n', '0\nBLOCK\n8\n0\n2\nL0\n70\n0\n10\n0\n20\n0\n30\n0\n0\nLINE\n8\n0\n10\n0\n20\n0\n30\n0\n11\n1\n21\n1\n31\n0\n0\nENDBLK\n8\n0\n'];
    for (let k = 1; k <= 8; k++) bomb.push(`0\nBLOCK\n8\n0\n2\nL${k}\n70\n0\n10\n0\n20\n0\n30\n0\n${Array.from({ length: 10 }, (_, i) => `0\nINSERT\n8\n0\n2\nL${k - 1}\n10\n${i}\n20\n0\n30\n0\n`).join('')}0\nENDBLK\n8\n0\n`);
    bomb.push('0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n8\n0\n2\nL8\n10\n100\n20\n0\n30\n0\n0\nENDSEC\n0\nEOF\n');
    const index = new DrawingIndex(load(bomb.join('')));
    const root = index.doc.layouts[0]?.entities[0];
    if (!root) throw new Error('no root insert');
    expect(index.expansion.count(root)).toBeGreaterThan(MAX_EXPANDED_ENTITIES);
    expect(index.box(root)).toEqual({ minX: 100, minY: 0, maxX: 100 + 8 * 9 + 1, maxY: 1 });
    expect(() => index.primitives(root)).toThrow(expect.objectContaining({ code: 'CAD_DXF_TOO_COMPLEX' }));
  });
});

describe('handle problems', () => {
  it('reports the empty handles of a real exported drawing as a problem of the drawing', () => {
    const doc = load(readFileSync(path.resolve('electron/testSupport/fixtures/dxf/bad_empty_handles.dxf'), 'latin1'));
    expect(doc.problems.find((p) => p.kind === 'empty_handle')?.message).toMatch(/^8 entities have an empty handle/);
  });

  it('reports a handle used by two entities', () => {
    const doc = load('0\nSECTION\n2\nENTITIES\n0\nLINE\n5\nA1\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n0\nLINE\n5\na1\n8\n0\n10\n0\n20\n0\n11\n2\n21\n0\n0\nENDSEC\n0\nEOF\n');
    expect(doc.problems.find((p) => p.kind === 'duplicate_handle')?.message).toContain('A1 ×2');
  });
});

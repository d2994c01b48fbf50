import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChecklist } from '../checklist';
import type { EntitySummary, FrameEvidence } from '../evidence';
import type { Frame } from '../frame';
import { evaluateFrameRules } from './index';

const checklist = parseChecklist(readFileSync(path.resolve(__dirname, '../../../../../resources/checklist/review_checklist.json'), 'utf8'), 'default');
const only = { ...checklist, items: checklist.items.filter((i) => i.id === 'SHT-002') };

/** A GB A3 sheet scaled by `k` drawing units per mm and moved to (ox, oy): trim 420 × 297, border 10 mm in. */
function sheet(k: number, ox: number, oy: number): Frame {
  const at = (x: number, y: number) => ({ x: ox + x * k, y: oy + y * k });
  const box = (a: { x: number; y: number }, b: { x: number; y: number }) => ({ minX: a.x, minY: a.y, maxX: b.x, maxY: b.y });
  return {
    id: 'F1',
    label: 'A3',
    bbox: box(at(10, 10), at(410, 287)),
    sheet: { widthMm: 420, heightMm: 297, box: box(at(0, 0), at(420, 297)) },
    layout: 'Model',
    sheetName: 'A3',
    unitsPerPaperMm: k,
    titleBlock: {},
    titleBlockAnchors: {},
    origin: 'detected',
  };
}

const SIDE_MARKS: Record<string, [number, number, number, number]> = { bottom: [210, 0, 210, 15], top: [210, 282, 210, 297], left: [0, 148.5, 15, 148.5], right: [405, 148.5, 420, 148.5] };
const marks = (k: number, ox: number, oy: number, sides: readonly string[], layer = '图框'): EntitySummary[] =>
  sides.map((side) => {
    const [x1, y1, x2, y2] = SIDE_MARKS[side]!;
    return { handle: `M-${side}`, type: 'LINE', layer, bbox: { minX: ox + Math.min(x1, x2) * k, minY: oy + Math.min(y1, y2) * k, maxX: ox + Math.max(x1, x2) * k, maxY: oy + Math.max(y1, y2) * k } };
  });
const evidence = (k: number, ox: number, oy: number, entities: EntitySummary[], chinese = true, weight = 50): FrameEvidence => ({
  frameId: 'F1',
  layers: [{ name: '图框', lineType: 'Continuous', lineWeight: weight, entityCount: 4 }, { name: 'THIN', lineType: 'Continuous', lineWeight: 25, entityCount: 4 }],
  texts: [{ handle: 'T', text: chinese ? '技术要求' : 'NOTES', position: { x: ox + 40 * k, y: oy + 60 * k }, height: 5 * k, layer: '文字' }],
  dimensions: [],
  entities: [],
  marginEntities: entities,
  entitiesTruncated: false,
  zeroLength: [],
  duplicates: [],
  screenshots: [],
  toolCalls: [],
});
const run = (frame: Frame, ev: FrameEvidence, locale: 'en' | 'zh-CN' = 'en') => evaluateFrameRules(only, { frame, evidence: ev, locale, annotationLocale: locale });

describe('SHT-002 centring marks (GB/T 14689)', () => {
  it('names exactly the sides without a mark, at any drawing scale and position', () => {
    const sides = ['bottom', 'right', 'top', 'left'];
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 10, 0.5, 100), fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -100_000, max: 100_000 }), fc.subarray(sides), (k, ox, oy, present) => {
        const drafts = run(sheet(k, ox, oy), evidence(k, ox, oy, marks(k, ox, oy, present)));
        const absent = sides.filter((s) => !present.includes(s));
        if (absent.length === 0) return drafts.length === 0;
        return drafts.length === 1 && drafts[0]!.message.includes(`no centring mark on the ${absent.join(', ')} side(s)`);
      }),
    );
  });

  it('reports marks drawn on a layer thinner than 0.5 mm, and a mark reaching far into the frame is not one', () => {
    const thin = run(sheet(1, 0, 0), evidence(1, 0, 0, marks(1, 0, 0, ['bottom', 'top', 'left', 'right'], 'THIN')), 'zh-CN');
    expect(thin.map((d) => d.message)).toEqual(['图幅 A3：下、右、上、左边的对中符号线宽小于 0.5 mm（GB/T 14689：四边中点处画对中符号，粗实线，自纸边伸入图框约 5 mm）。']);
    const long: EntitySummary = { handle: 'AXIS', type: 'LINE', layer: '图框', bbox: { minX: 210, minY: 0, maxX: 210, maxY: 150 } };
    const drafts = run(sheet(1, 0, 0), evidence(1, 0, 0, [...marks(1, 0, 0, ['top', 'left', 'right']), long]));
    expect(drafts[0]!.message).toContain('no centring mark on the bottom side(s)');
  });

  it('accepts a mark drawn in two pieces that meet at the border, as QCAD draws them', () => {
    const piece = (side: string, from: number, to: number): EntitySummary => ({ handle: `P-${side}-${from}`, type: 'LINE', layer: '图框', bbox: { minX: 210, minY: from, maxX: 210, maxY: to } });
    const drafts = run(sheet(1, 0, 0), evidence(1, 0, 0, [...marks(1, 0, 0, ['top', 'left', 'right']), piece('bottom', 5, 10), piece('bottom', 10, 15)]));
    expect(drafts).toEqual([]);
    const apart = run(sheet(1, 0, 0), evidence(1, 0, 0, [...marks(1, 0, 0, ['top', 'left', 'right']), piece('bottom', 2, 6), piece('bottom', 10, 15)]));
    expect(apart[0]!.message).toContain('no centring mark on the bottom side(s)');
  });

  it('stays silent on sheets that are not GB: English texts, no recognised trim, a border on the trim, or a format not listed', () => {
    const bare = (frame: Frame, ev: FrameEvidence) => run(frame, { ...ev, marginEntities: [] });
    expect(bare(sheet(1, 0, 0), evidence(1, 0, 0, [], false))).toEqual([]);
    const { sheet: _trim, ...untrimmed } = sheet(1, 0, 0);
    expect(bare(untrimmed, evidence(1, 0, 0, []))).toEqual([]);
    expect(bare({ ...sheet(1, 0, 0), bbox: { minX: 0, minY: 0, maxX: 420, maxY: 297 } }, evidence(1, 0, 0, []))).toEqual([]);
    expect(bare({ ...sheet(1, 0, 0), sheetName: 'A3x3' }, evidence(1, 0, 0, []))).toEqual([]);
    expect(bare(sheet(1, 0, 0), evidence(1, 0, 0, []))).toHaveLength(1);
  });

  it('can be switched off in a checklist without removing the item', () => {
    const off = { ...only, items: only.items.map((i) => (i.mode === 'rule' && i.params.rule === 'centring_marks' ? { ...i, params: { ...i.params, enabled: false } } : i)) };
    expect(evaluateFrameRules(off, { frame: sheet(1, 0, 0), evidence: evidence(1, 0, 0, []), locale: 'en', annotationLocale: 'en' })).toEqual([]);
  });
});

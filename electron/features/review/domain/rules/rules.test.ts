import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChecklist } from '../checklist';
import type { FrameEvidence } from '../evidence';
import type { Frame } from '../frame';
import { evaluateDrawingRules, evaluateFrameRules, frameUnitsPerPaperMm, overrideValue } from './index';

const checklist = parseChecklist(readFileSync(path.resolve(__dirname, '../../../../../resources/checklist/review_checklist.json'), 'utf8'), 'default');

const a3Frame: Frame = {
  id: 'F1',
  label: 'A3 #1',
  bbox: { minX: 0, minY: 0, maxX: 420, maxY: 297 },
  layout: 'Model',
  sheetName: 'A3',
  unitsPerPaperMm: null,
  titleBlock: { title: '法兰', drawingNo: 'CS-01', scale: '1:1', designer: '张工', checker: '李工', date: '2026-11-30', revision: 'A', material: 'Q235', weight: '1.2', sheetNo: '1', sheetCount: '1', organisation: 'CadSight', approver: '王工' },
  titleBlockAnchors: {},
  origin: 'detected',
};

const emptyEvidence: FrameEvidence = { frameId: 'F1', texts: [], dimensions: [], entities: [], entitiesTruncated: false, zeroLength: [], duplicates: [], screenshots: [], toolCalls: [] };
const review = (frame: Frame, evidence: Partial<FrameEvidence>) => evaluateFrameRules(checklist, { frame, evidence: { ...emptyEvidence, ...evidence }, locale: 'en', annotationLocale: 'en' });
const items = (drafts: { checklistItemId: string }[]) => drafts.map((d) => d.checklistItemId).sort();

describe('frame rules on the default checklist', () => {
  it('find nothing in a clean, complete A3 frame', () => {
    expect(review(a3Frame, { texts: [{ handle: 'T1', text: 'Note', position: { x: 10, y: 10 }, height: 3.5, layer: 'TEXT' }] })).toEqual([]);
  });

  it('report zero-length entities and duplicate groups with their handles as evidence', () => {
    const drafts = review(a3Frame, {
      zeroLength: [{ handle: 'Z1', type: 'LINE', location: { x: 5, y: 5 } }],
      duplicates: [{ handles: ['D1', 'D2'], type: 'LINE', location: { x: 7, y: 7 } }],
    });
    expect(items(drafts)).toEqual(['GEO-001', 'GEO-002']);
    expect(drafts.find((d) => d.checklistItemId === 'GEO-002')?.evidenceRefs).toEqual(['tool:find_duplicate_entities', 'entity:D1', 'entity:D2']);
  });

  it('report geometry on layer 0 once per frame, ignoring viewports', () => {
    const drafts = review(a3Frame, {
      entities: [
        { handle: 'L1', type: 'LINE', layer: '0', bbox: { minX: 1, minY: 1, maxX: 2, maxY: 2 } },
        { handle: 'C1', type: 'CIRCLE', layer: '0', bbox: { minX: 5, minY: 5, maxX: 9, maxY: 9 } },
        { handle: 'V1', type: 'VIEWPORT', layer: '0' },
        { handle: 'L2', type: 'LINE', layer: 'OUTLINE' },
      ],
    }).filter((d) => d.checklistItemId === 'LAY-001');
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.handles).toEqual(['L1', 'C1']);
    expect(drafts[0]!.location).toEqual({ kind: 'bbox', bbox: { minX: 1, minY: 1, maxX: 9, maxY: 9 } });
  });

  it('judge text heights against the series times the frame scale', () => {
    const scaled: Frame = { ...a3Frame, bbox: { minX: 0, minY: 0, maxX: 420 * 50, maxY: 297 * 50 }, titleBlock: { ...a3Frame.titleBlock, scale: '1:50' } };
    const texts = [
      { handle: 'OK', text: 'fine', position: { x: 1, y: 1 }, height: 175, layer: 'T' },
      { handle: 'BAD', text: 'odd', position: { x: 2, y: 2 }, height: 200, layer: 'T' },
    ];
    const drafts = review(scaled, { texts });
    expect(drafts.map((d) => d.handles)).toEqual([['BAD']]);
    expect(drafts[0]!.message).toContain('use 3.5 mm');
  });

  it('flag an overridden dimension that contradicts its measurement but accept matching or symbolic overrides', () => {
    const dim = (handle: string, measurement: number, textOverride: string) => ({ handle, dimType: null, measurement, measured: null, display: null, blockText: null, textOverride, position: { x: 1, y: 1 }, layer: 'DIM' });
    const drafts = review(a3Frame, {
      dimensions: [dim('WRONG', 50, '60'), dim('SAME', 50, '%%c50'), dim('KEEP', 50, '<> H7'), dim('WORDS', 50, '见详图'), dim('ROUND', 49.996, '50')],
    });
    expect(drafts.map((d) => d.handles)).toEqual([['WRONG']]);
    expect(drafts[0]!.severity).toBe('blocking');
  });

  it('report an empty revision and a missing checker label as separate findings', () => {
    const { checker: _checker, ...withoutChecker } = a3Frame.titleBlock;
    const drafts = review({ ...a3Frame, titleBlock: { ...withoutChecker, revision: ' ' } }, {});
    expect(drafts.map((d) => d.discriminator).sort()).toEqual(['checker', 'revision']);
    expect(drafts.find((d) => d.discriminator === 'revision')?.message).toContain('empty');
    expect(drafts.find((d) => d.discriminator === 'checker')?.message).toContain('no checker field');
  });

  it('point an empty field at the value cell right of its label, and a missing one at the title-block corner', () => {
    const { checker: _checker, ...withoutChecker } = a3Frame.titleBlock;
    const label = { handle: 'L', text: '版本', position: { x: 238, y: 7.25 }, height: 3.5, layer: 'TEXT' };
    const drafts = review({ ...a3Frame, titleBlock: { ...withoutChecker, revision: '' } }, { texts: [label] });
    expect(drafts.find((d) => d.discriminator === 'revision')?.location).toEqual({ kind: 'point', point: { x: 238 + 24.5, y: 9 } });
    expect(drafts.find((d) => d.discriminator === 'checker')?.location).toEqual({ kind: 'point', point: { x: 420 - 420 * 0.08, y: 297 * 0.05 } });
  });

  it('advise Chinese text below 3.5 mm up to 3.5 mm (GB/T 14691) even when its height is on the series', () => {
    const texts = [
      { handle: 'HAN', text: '技术要求', position: { x: 1, y: 1 }, height: 2.5, layer: 'T' },
      { handle: 'LATIN', text: 'Ra 3.2', position: { x: 2, y: 2 }, height: 2.5, layer: 'T' },
      { handle: 'HAN-OFF', text: '注', position: { x: 3, y: 3 }, height: 2.2, layer: 'T' },
    ];
    const drafts = review(a3Frame, { texts });
    expect(drafts.map((d) => d.handles[0])).toEqual(['HAN', 'HAN-OFF']);
    expect(drafts.every((d) => d.message.includes('GB/T 14691') && d.message.includes('use 3.5 mm'))).toBe(true);
  });

  it('report a frame without any title-block label once, not once per field', () => {
    const drafts = review({ ...a3Frame, titleBlock: {} }, {});
    expect(drafts.map((d) => d.discriminator)).toEqual(['no-title-block']);
    expect(drafts[0]!.message).toContain('no title block');
  });

  it('report a frame whose only "field" is a title guessed from a caption as having no title block, once', () => {
    const drafts = review({ ...a3Frame, titleBlock: { title: 'no overrides' } }, {}).filter((d) => d.checklistItemId === 'TB-001');
    expect(drafts.map((d) => d.discriminator)).toEqual(['no-title-block']);
  });

  it('flag a frame whose paper size is not a standard sheet', () => {
    const odd: Frame = { ...a3Frame, sheetName: null, unitsPerPaperMm: 1, bbox: { minX: 0, minY: 0, maxX: 500, maxY: 300 } };
    expect(items(review(odd, {}))).toEqual(['SHT-001']);
  });

  it('say nothing about the sheet size of a frame that is only a paper layout\'s content extents', () => {
    const extents: Frame = { ...a3Frame, sheetName: null, unitsPerPaperMm: 1 / 25.4, extentsOnly: true, bbox: { minX: 0, minY: 0, maxX: 13, maxY: 7 } };
    expect(items(review(extents, {}))).not.toContain('SHT-001');
  });

  it('skip title-block and sheet checks for the synthetic whole-drawing frame', () => {
    const whole: Frame = { ...a3Frame, id: 'whole', origin: 'whole-drawing', sheetName: null, titleBlock: {}, bbox: { minX: 0, minY: 0, maxX: 999, maxY: 10 } };
    expect(review(whole, {})).toEqual([]);
  });
});

describe('DIM-001 against the measured geometry', () => {
  const linear = (handle: string, over: Partial<FrameEvidence['dimensions'][number]>) => ({
    handle,
    dimType: 'linear',
    measurement: null,
    measured: 49.6,
    display: { linearFactor: 1, decimals: 2, roundTo: 0, suppressTrailingZeros: false },
    blockText: null,
    textOverride: '',
    position: { x: 1, y: 1 },
    layer: 'DIM',
    ...over,
  });
  const flagged = (dims: FrameEvidence['dimensions']) => review(a3Frame, { dimensions: dims }).map((d) => d.handles[0]);

  it('judges a dimension without a stored measurement by its definition points, within the precision the text shows', () => {
    expect(flagged([linear('WHOLE', { textOverride: '50' }), linear('TENTH', { textOverride: '50.0' }), linear('RIGHT', { textOverride: '49.6' })])).toEqual(['TENTH']);
  });

  it('reads a whole number the style printed under trailing-zero suppression as DIMDEC places, but a typed one as whole units', () => {
    const display = { linearFactor: 1, decimals: 2, roundTo: 0, suppressTrailingZeros: true };
    expect(flagged([linear('PRINTED', { blockText: '50', display }), linear('TYPED', { textOverride: '(50)', display })])).toEqual(['PRINTED']);
  });

  it('applies DIMLFAC and DIMRND before comparing', () => {
    const scaled = { linearFactor: 2, decimals: 0, roundTo: 5, suppressTrailingZeros: false };
    expect(flagged([linear('OK', { measured: 49.6, textOverride: '100', display: scaled }), linear('RAW', { measured: 49.6, textOverride: '50', display: scaled })])).toEqual(['RAW']);
    expect(review(a3Frame, { dimensions: [linear('RAW', { textOverride: '50', display: scaled })] })[0]!.message).toContain('DIMLFAC 2');
  });

  it('compares angles in degrees and flags a block text that no longer matches the geometry', () => {
    expect(flagged([linear('A', { dimType: 'angular', measured: 30, textOverride: '30°' }), linear('B', { dimType: 'angular', measured: 30, textOverride: '45°' })])).toEqual(['B']);
    expect(flagged([linear('STALE', { blockText: '60' }), linear('FRESH', { blockText: '49.60' })])).toEqual(['STALE']);
  });

  it('never reads counts or diameter signs as the value', () => {
    expect(flagged([linear('HOLES', { measured: 12, textOverride: '4-%%c12' }), linear('TIMES', { measured: 10, textOverride: '2×%%c10' })])).toEqual([]);
  });
});

describe('drawing rules', () => {
  it('report entities outside every frame once, ignoring Defpoints and our own layer', () => {
    const drafts = evaluateDrawingRules(checklist, {
      frames: [a3Frame],
      drawing: {
        fingerprint: 'f'.repeat(64),
        entitiesTruncated: false,
        layers: [],
        problems: [],
        outsideFrames: [
          { handle: 'X1', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 500, minY: 0, maxX: 600, maxY: 10 } },
          { handle: 'X2', type: 'POINT', layer: 'Defpoints', bbox: { minX: 700, minY: 0, maxX: 700, maxY: 0 } },
        ],
      },
      locale: 'zh-CN',
      annotationLocale: 'zh-CN',
    });
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.frameId).toBeNull();
    expect(drafts[0]!.handles).toEqual(['X1']);
  });
});

describe('geometry rules on entities no sheet shows', () => {
  it('report a zero-length entity and a duplicate outside every frame at drawing level, besides the not-plotted finding', () => {
    const drafts = evaluateDrawingRules(checklist, {
      frames: [a3Frame],
      drawing: {
        fingerprint: 'f'.repeat(64),
        entitiesTruncated: false,
        layers: [],
        problems: [],
        outsideFrames: [
          { handle: 'Z1', type: 'LINE', layer: 'OUTLINE', bbox: { minX: 500, minY: 0, maxX: 500, maxY: 0 } },
          { handle: 'D1', type: 'CIRCLE', layer: 'OUTLINE', bbox: { minX: 590, minY: 0, maxX: 610, maxY: 20 } },
        ],
        outsideZeroLength: [{ handle: 'Z1', type: 'LINE', location: { x: 500, y: 0 } }],
        outsideDuplicates: [{ handles: ['D1', 'D2'], type: 'CIRCLE', location: { x: 600, y: 10 } }],
      },
      locale: 'en',
      annotationLocale: 'en',
    });
    const byItem = new Map(drafts.map((d) => [d.checklistItemId, d]));
    expect([...byItem.keys()].sort()).toEqual(['GEO-001', 'GEO-002', 'GEO-003']);
    expect(byItem.get('GEO-001')).toMatchObject({ frameId: null, handles: ['Z1'], location: { kind: 'point', point: { x: 500, y: 0 } } });
    expect(byItem.get('GEO-002')).toMatchObject({ frameId: null, handles: ['D1', 'D2'] });
  });
});

describe('helpers', () => {
  it('read the stated number of an override without counts, symbols or formatting codes', () => {
    expect(overrideValue('2×%%c10')).toBe(10);
    expect(overrideValue('{\\H2.5;R5}')).toBe(5);
    expect(overrideValue('12,5')).toBe(12.5);
    expect(overrideValue('')).toBeUndefined();
    expect(overrideValue('<>')).toBeUndefined();
  });

  it('derive the paper scale of an unlabelled A-size frame from its size', () => {
    expect(frameUnitsPerPaperMm({ ...a3Frame, sheetName: null, titleBlock: {}, bbox: { minX: 0, minY: 0, maxX: 420 * 100, maxY: 297 * 100 } })).toBeCloseTo(50, 6);
    expect(frameUnitsPerPaperMm({ ...a3Frame, sheetName: null, titleBlock: {}, bbox: { minX: 0, minY: 0, maxX: 297, maxY: 210 } })).toBe(1);
  });
});

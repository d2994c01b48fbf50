import { describe, expect, it } from 'vitest';
import { meetsTarget, scoreBySpace, scoreRules, sheetOfFrame, type UnitOutcome } from './score';

const unit = (name: string, expected: string[], fired: string[], space: 'model' | 'paper' = 'model'): UnitOutcome => ({ unit: name, space, expected, fired });

describe('scoring the review evaluation', () => {
  it('counts a labelled rule that fired as found, an unlabelled one as a false alarm and a silent labelled one as a miss', () => {
    const [score] = scoreRules([unit('a', ['TXT-001'], ['TXT-001']), unit('b', [], ['TXT-001']), unit('c', ['TXT-001'], []), unit('d', [], [])], ['TXT-001']);
    expect(score).toMatchObject({ tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5, misses: ['c'], falseAlarms: ['b'] });
    expect(meetsTarget(score!)).toBe(false);
  });

  it('has no precision for a rule that never fired and no recall for one nobody labelled, and splits by space', () => {
    const outcomes = [unit('m', ['GEO-001'], ['GEO-001']), unit('p', ['GEO-001'], [], 'paper')];
    const [geo, dim] = scoreRules(outcomes, ['GEO-001', 'DIM-001']);
    expect(dim).toMatchObject({ precision: null, recall: null });
    expect(meetsTarget(dim!)).toBe(true);
    expect(geo!.recall).toBe(0.5);
    const spaces = scoreBySpace(outcomes, ['GEO-001']);
    expect([spaces.model[0]!.recall, spaces.paper[0]!.recall, spaces.paper[0]!.precision]).toEqual([1, 0, null]);
  });

  it('matches a frame to the generated sheet its centre lies on, in the same layout whatever the case', () => {
    const sheets = [{ layout: 'Model', box: { minX: 0, minY: 0, maxX: 420, maxY: 297 } }, { layout: 'Model', box: { minX: 450, minY: 0, maxX: 870, maxY: 297 } }, { layout: 'Layout1', box: { minX: 0, minY: 0, maxX: 420, maxY: 297 } }];
    expect(sheetOfFrame({ id: 'f', layout: 'Model', bbox: { minX: 460, minY: 10, maxX: 860, maxY: 287 } }, sheets)).toBe(1);
    expect(sheetOfFrame({ id: 'f', layout: 'LAYOUT1', bbox: { minX: 10, minY: 10, maxX: 410, maxY: 287 } }, sheets)).toBe(2);
    expect(sheetOfFrame({ id: 'f', layout: 'Model', bbox: { minX: 2000, minY: 0, maxX: 2400, maxY: 297 } }, sheets)).toBe(-1);
  });
});

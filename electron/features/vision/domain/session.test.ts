import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitSummary, withoutSummaryTags } from './session';

describe('first-turn summary', () => {
  it('reads our SUMMARY line and removes it from the description', () => {
    expect(splitSummary('A flange drawing.\n\nSUMMARY: Flange, 4 holes.')).toEqual({ description: 'A flange drawing.', summary: 'Flange, 4 holes.' });
  });

  it("reads picsense's <summary> tags wherever they are and never leaves a tag in the description", () => {
    expect(splitSummary('<summary>Flange drawing</summary>\nFour holes on a 120 mm circle.')).toEqual({ description: 'Four holes on a 120 mm circle.', summary: 'Flange drawing' });
    expect(splitSummary('Four holes.\n<summary>\n  Flange,\n  front view\n</summary>')).toEqual({ description: 'Four holes.', summary: 'Flange, front view' });
  });

  it('falls back to the first sentence when there is no summary at all', () => {
    expect(splitSummary('A red tile. Nothing else.')).toEqual({ description: 'A red tile. Nothing else.', summary: 'A red tile.' });
  });

  it('keeps the tagged summary and strips every tag from any surrounding text (property)', () => {
    const text = fc.string({ maxLength: 80 }).filter((t) => !/<\/?summary>/i.test(t));
    fc.assert(
      fc.property(text, fc.string({ minLength: 1, maxLength: 60 }).filter((t) => t.trim() !== '' && !/[<>]/.test(t)), text, (before, summary, after) => {
        const split = splitSummary(`${before}<summary>${summary}</summary>${after}`);
        expect(split.summary.replace(/…$/, '')).toBe(summary.replace(/\s+/g, ' ').trim().slice(0, split.summary.endsWith('…') ? 159 : 160));
        expect(split.description).not.toMatch(/<\/?summary>/i);
      }),
    );
  });
});

describe('a follow-up answer', () => {
  it('loses its <summary> tags but keeps a "Summary:" line, which is part of the answer there', () => {
    expect(withoutSummaryTags('<summary>Flange</summary>\nThe bore is 40 mm.\n\n\n<summary>x</summary>')).toBe('The bore is 40 mm.');
    expect(withoutSummaryTags('Two holes are missing.\nSummary: the PCD is wrong.')).toBe('Two holes are missing.\nSummary: the PCD is wrong.');
  });
});

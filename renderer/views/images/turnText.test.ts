import { describe, expect, it } from 'vitest';
import { distinctTitles, replyWithoutSummary, sessionTitle, splitTurnPrompt, stripLabel } from './turnText';

describe('turn text', () => {
  it('separates the engine summary instruction from the first question', () => {
    const prompt = 'What is on this page?\n\nAfter your answer, add one final line of the form "SUMMARY: <one sentence>".';
    expect(splitTurnPrompt({ seq: 0, kind: 'analyze', prompt })).toEqual({ user: 'What is on this page?', engine: 'After your answer, add one final line of the form "SUMMARY: <one sentence>".' });
    expect(splitTurnPrompt({ seq: 1, kind: 'analyze', prompt: 'Line one\n\nline two' })).toEqual({ user: 'Line one\n\nline two', engine: null });
  });

  it('separates the engine line that introduces a zoomed crop', () => {
    const prompt = 'Image #0-zoom is a full-resolution crop of Image #0 (sheet.png).\nWhat is in this region?';
    expect(splitTurnPrompt({ seq: 2, kind: 'zoom', prompt })).toEqual({ engine: 'Image #0-zoom is a full-resolution crop of Image #0 (sheet.png).', user: 'What is in this region?' });
  });

  it('drops a final summary line only when it repeats the session summary', () => {
    expect(replyWithoutSummary('A green square.\nSUMMARY: Green square', 'Green square')).toBe('A green square.');
    expect(replyWithoutSummary('A green square.\n**Summary:** Green square', 'Green square')).toBe('A green square.');
    expect(replyWithoutSummary('A green square.\nSUMMARY: Something else', 'Green square')).toBe('A green square.\nSUMMARY: Something else');
    expect(replyWithoutSummary('SUMMARY: Green square', 'Green square')).toBe('SUMMARY: Green square');
  });

  it("removes picsense's <summary> tags from the answer and the title", () => {
    expect(replyWithoutSummary('<summary>Flange</summary>\nFour holes.', 'Flange')).toBe('Four holes.');
    expect(sessionTitle('<summary>Flange  drawing</summary>')).toBe('Flange drawing');
  });

  it('shortens image labels to the file name, keeping the page of a PDF', () => {
    expect(stripLabel('/home/me/drawings/set.pdf p.2/12')).toBe('set.pdf p.2/12');
    expect(stripLabel('C:\\scans\\sheet.png')).toBe('sheet.png');
    expect(stripLabel('flange.png')).toBe('flange.png');
  });
});

describe('distinct session titles', () => {
  it('numbers later sessions that share a title in order of creation and leaves unique titles alone', () => {
    const titles = distinctTitles(
      [
        { id: 'b', summary: 'Flange drawing', createdAt: 2 },
        { id: 'a', summary: 'Flange drawing', createdAt: 1 },
        { id: 'c', summary: '', createdAt: 3 },
        { id: 'd', summary: 'Gear', createdAt: 4 },
        { id: 'e', summary: '', createdAt: 5 },
      ],
      'Untitled session',
    );
    expect(Object.fromEntries(titles)).toEqual({ a: 'Flange drawing', b: 'Flange drawing (2)', c: 'Untitled session', d: 'Gear', e: 'Untitled session (2)' });
  });
});

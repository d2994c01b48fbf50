import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Markdown, parseMarkdown } from './markdown';

describe('answer Markdown', () => {
  it('splits headings, lists, code, tables and paragraphs', () => {
    const blocks = parseMarkdown('## Title\nSome *text*.\n\n- one\n- two\n  more\n1. first\n\n```\nx < y\n```\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Title' },
      { kind: 'paragraph', text: 'Some *text*.' },
      { kind: 'list', ordered: false, items: ['one', 'two more'] },
      { kind: 'list', ordered: true, items: ['first'] },
      { kind: 'code', text: 'x < y' },
      { kind: 'table', header: ['a', 'b'], rows: [['1', '2']] },
    ]);
  });

  it('renders formatting as elements and never interprets HTML in an answer', () => {
    const { container } = render(<Markdown source={'**Ø50** and `H7` <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n- <b>bold?</b>'} />);
    expect(container.querySelector('strong')?.textContent).toBe('Ø50');
    expect(container.querySelector('code')?.textContent).toBe('H7');
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('keeps every character of any answer as text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (source) => {
        const { container, unmount } = render(<Markdown source={source} />);
        expect(container.querySelector('script, img, iframe, a, object')).toBeNull();
        // Markup characters and list numbers may go; every letter stays (fence lines carry only the language name).
        const letters = (s: string) => s.replace(/[^A-Za-z]/g, '');
        expect(letters(container.textContent ?? '')).toBe(letters(source.replace(/^\s*```.*$/gm, '')));
        unmount();
      }),
      { numRuns: 60 },
    );
  });
});

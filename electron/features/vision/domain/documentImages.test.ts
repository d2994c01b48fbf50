import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifySource } from './sourceClassifier';
import { annotateDocument, detectDocumentFormat, escapeCommentText, findDocumentImages, resolveImageReference } from './documentImages';

const urls = (text: string, format: 'html' | 'markdown') => findDocumentImages(text, format).map((o) => o.url);

describe('markdown images', () => {
  it('finds inline images with titles, angle brackets and balanced parentheses', () => {
    const md = 'A ![one](a.png "Title") and ![two](<b c.png>) and ![three](d_(1).png) and ![](e.png \'t\')';
    expect(urls(md, 'markdown')).toEqual(['a.png', 'b c.png', 'd_(1).png', 'e.png']);
    expect(findDocumentImages(md, 'markdown')[0]).toMatchObject({ alt: 'one', title: 'Title' });
  });

  it('finds reference-style images in full, collapsed and shortcut forms', () => {
    const md = '![Full][logo] ![Logo][] ![logo]\n\n[Logo]: https://x.test/logo.png "The logo"\n';
    const found = findDocumentImages(md, 'markdown');
    expect(found.map((o) => o.url)).toEqual(['https://x.test/logo.png', 'https://x.test/logo.png', 'https://x.test/logo.png']);
    expect(found[0]!.title).toBe('The logo');
  });

  it('finds inline HTML images inside markdown, and skips code blocks, code spans and comments', () => {
    const md = ['Text <img src="inline.png" alt="x"> more', '```', '![not](code.png)', '```', '`![no](span.png)`', '<!-- ![no](comment.png) -->', '![yes](real.png)'].join('\n');
    expect(urls(md, 'markdown')).toEqual(['inline.png', 'real.png']);
  });
});

describe('HTML images', () => {
  it('takes the largest srcset candidate and treats <picture> as one image', () => {
    const html = `<html><body>
      <img src="small.png" srcset="small.png 480w, large.png 1200w" alt="a">
      <picture><source type="image/avif" srcset="x.avif"><source srcset="p1.webp 1x, p2.webp 2x"><img src="fallback.png"></picture>
      <img src='q.png?a=1&amp;b=2'>
      <script>var s = '<img src="script.png">'</script></body></html>`;
    expect(urls(html, 'html')).toEqual(['large.png', 'p2.webp', 'q.png?a=1&b=2']);
  });

  it('resolves relative references of a fetched document against its URL and <base href>, never as local paths', () => {
    expect(resolveImageReference('img/a.png', 'https://site.test/docs/page.html')).toBe('https://site.test/docs/img/a.png');
    expect(resolveImageReference('/a.png', 'https://site.test/docs/page.html', 'https://cdn.test/assets/')).toBe('https://cdn.test/a.png');
    expect(resolveImageReference('a.png', 'https://site.test/docs/page.html', '/assets/')).toBe('https://site.test/assets/a.png');
    expect(() => resolveImageReference('file:///etc/passwd', 'https://site.test/')).toThrow(expect.objectContaining({ code: 'VISION_URL_BLOCKED' }));
    expect(() => resolveImageReference('javascript:alert(1)', 'https://site.test/')).toThrow(expect.objectContaining({ code: 'VISION_URL_BLOCKED' }));
  });

  it('turns references of an inline document into local paths in the spelling the loader reads as paths', () => {
    expect(resolveImageReference('img/a.png', undefined)).toBe('./img/a.png');
    expect(resolveImageReference('my%20plan.png?v=2#top', undefined)).toBe('./my plan.png');
    expect(resolveImageReference('/abs/img.png', undefined)).toBe('/abs/img.png');
    expect(resolveImageReference('../up.png', undefined)).toBe('../up.png');
    expect(resolveImageReference('C:\\drawings\\a.png', undefined)).toBe('C:\\drawings\\a.png');
    expect(resolveImageReference('file:///srv/a.png', undefined)).toBe('file:///srv/a.png');
    expect(resolveImageReference('https://site.test/a.png', undefined)).toBe('https://site.test/a.png');
    expect(() => resolveImageReference('javascript:alert(1)', undefined)).toThrow(expect.objectContaining({ code: 'VISION_URL_BLOCKED' }));
  });

  it('never lets an inline reference be read as base64 or a URL scheme (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/=_ %.-]{1,120}$/), (name) => {
        let resolved: string;
        try {
          resolved = resolveImageReference(name, undefined);
        } catch (error) {
          expect((error as { code: string }).code).toMatch(/^VISION_/);
          return;
        }
        expect(classifySource(resolved).kind).toBe('path');
      }),
    );
    expect(classifySource(resolveImageReference(`/9j/${'A'.repeat(80)}`, undefined)).kind).toBe('path');
  });
});

describe('annotation', () => {
  it('detects HTML by content type or leading markup and markdown otherwise', () => {
    expect(detectDocumentFormat('# Title\n<img src="a.png">')).toBe('markdown');
    expect(detectDocumentFormat('<!DOCTYPE html><html>')).toBe('html');
    expect(detectDocumentFormat('anything', 'text/html; charset=utf-8')).toBe('html');
  });

  it('puts a comment right after each image and keeps the rest of the document byte-identical', () => {
    const md = 'Intro ![a](a.png) middle ![b](b.png) end';
    const found = findDocumentImages(md, 'markdown');
    const out = annotateDocument(md, found.map((occurrence, i) => ({ occurrence, note: `note ${i}` })));
    expect(out).toBe('Intro ![a](a.png) <!-- image-vision: note 0 --> middle ![b](b.png) <!-- image-vision: note 1 --> end');
  });

  it('never lets a description close or nest the comment early', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const escaped = escapeCommentText(text);
        expect(escaped).not.toMatch(/--!?>/);
        expect(escaped).not.toContain('<!--');
        const out = annotateDocument('![a](a.png)', [{ occurrence: findDocumentImages('![a](a.png)', 'markdown')[0]!, note: text }]);
        // Exactly one comment end: ours.
        expect(out.match(/--!?>/g)).toHaveLength(1);
      }),
    );
  });

  it('finds every generated markdown image exactly once whatever text surrounds it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^[a-z ]{0,12}$/), fc.stringMatching(/^[a-z0-9]{1,8}$/)), { maxLength: 6 }), (parts) => {
        const md = parts.map(([text, name]) => `${text}![${name}](${name}.png)`).join('\n');
        expect(urls(md, 'markdown')).toEqual(parts.map(([, name]) => `${name}.png`));
      }),
    );
  });
});

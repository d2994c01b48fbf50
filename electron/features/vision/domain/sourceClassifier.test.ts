import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifySource, shortenSource } from './sourceClassifier';

describe('classifySource', () => {
  it('recognises every spelling agents send', () => {
    expect(classifySource('https://x.test/a.png').kind).toBe('url');
    expect(classifySource('HTTP://x.test/a.png').kind).toBe('url');
    expect(classifySource('file:///tmp/a.png').kind).toBe('fileUrl');
    expect(classifySource('~/Pictures/a.png')).toMatchObject({ kind: 'path', style: 'home' });
    expect(classifySource('/tmp/a.png')).toMatchObject({ kind: 'path', style: 'posix' });
    expect(classifySource('C:\\Users\\me\\a.png')).toMatchObject({ kind: 'path', style: 'windows' });
    expect(classifySource('c:/Users/me/a.png')).toMatchObject({ kind: 'path', style: 'windows' });
    expect(classifySource('\\\\server\\share\\a.png')).toMatchObject({ kind: 'path', style: 'windows' });
    expect(classifySource('./a.png')).toMatchObject({ kind: 'path', style: 'relative' });
    expect(classifySource('a.png')).toMatchObject({ kind: 'path', style: 'relative' });
    expect(classifySource('data:image/png;base64,iVBORw0KGgo=')).toMatchObject({ kind: 'dataUri', mimeType: 'image/png' });
  });

  it('classifies the base64 of any PNG, JPEG, GIF or WebP payload as base64, including JPEG data starting with "/9j/"', () => {
    const magics = [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff], [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]];
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 60, maxLength: 400 }), fc.boolean(), fc.constantFrom(...magics), (bytes, urlSafe, magic) => {
        const text = Buffer.concat([Buffer.from(magic), Buffer.from(bytes)]).toString(urlSafe ? 'base64url' : 'base64');
        expect(classifySource(text).kind).toBe('base64');
      }),
    );
  });

  it('never classifies an absolute path with an extension as base64', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/), { minLength: 1, maxLength: 8 }), fc.constantFrom('png', 'jpg', 'webp'), (parts, ext) => {
        expect(classifySource(`/${parts.join('/')}.${ext}`).kind).toBe('path');
      }),
    );
  });

  it('refuses unknown schemes instead of reading them as paths', () => {
    expect(() => classifySource('javascript:alert(1)')).toThrow(expect.objectContaining({ code: 'VISION_URL_BLOCKED' }));
    expect(() => classifySource('ftp://x/a.png')).toThrow(expect.objectContaining({ code: 'VISION_URL_BLOCKED' }));
    expect(() => classifySource('   ')).toThrow(expect.objectContaining({ code: 'VISION_SOURCE_INVALID' }));
  });

  it('either classifies or throws a typed error for any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          expect(['url', 'path', 'fileUrl', 'dataUri', 'base64']).toContain(classifySource(text).kind);
        } catch (error) {
          expect(['VISION_SOURCE_INVALID', 'VISION_URL_BLOCKED']).toContain((error as { code: string }).code);
        }
      }),
    );
  });
});

describe('shortenSource', () => {
  it('drops query strings of signed URLs and collapses inline data to its size', () => {
    expect(shortenSource('https://bucket.test/a.png?X-Amz-Signature=abc')).toBe('https://bucket.test/a.png?…');
    expect(shortenSource(`data:image/png;base64,${'A'.repeat(4000)}`)).toBe('data:image/png;base64 (3 KB)');
    expect(shortenSource(`/${'dir/'.repeat(100)}a.png`).length).toBe(120);
  });
});

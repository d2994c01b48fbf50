import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'none';
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('decodeBase64', () => {
  it('round-trips any bytes in standard and URL-safe alphabets, padded or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), fc.boolean(), (bytes, urlSafe, stripPadding) => {
        let text = Buffer.from(bytes).toString(urlSafe ? 'base64url' : 'base64');
        if (!urlSafe && stripPadding) text = text.replace(/=+$/, '');
        if (text === '') return;
        expect(Buffer.from(decodeBase64(text, 1000)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('ignores whitespace such as line breaks every 76 characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        const wrapped = Buffer.from(bytes).toString('base64').replace(/(.{76})/g, '$1\r\n');
        expect(Buffer.from(decodeBase64(wrapped, 1000)).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  it('refuses oversize data from its length before decoding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 50 }), (limit, extra) => {
        const text = Buffer.alloc(limit + extra, 7).toString('base64');
        expect(codeOf(() => decodeBase64(text, limit))).toBe('VISION_IMAGE_TOO_LARGE');
      }),
    );
  });

  it('never throws anything but a typed error on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const code = codeOf(() => decodeBase64(text, 1000));
        expect(['none', 'VISION_SOURCE_INVALID', 'VISION_IMAGE_TOO_LARGE']).toContain(code);
      }),
    );
  });

  it('refuses mixed alphabets, stray characters and impossible lengths', () => {
    expect(codeOf(() => decodeBase64('ab+c-_==', 100))).toBe('VISION_SOURCE_INVALID');
    expect(codeOf(() => decodeBase64('ab$c', 100))).toBe('VISION_SOURCE_INVALID');
    expect(codeOf(() => decodeBase64('abcde', 100))).toBe('VISION_SOURCE_INVALID');
    expect(codeOf(() => decodeBase64('', 100))).toBe('VISION_SOURCE_INVALID');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, MIN_SECRET_LENGTH, REDACTED } from './redact';

describe('createRedactor', () => {
  it('replaces a registered secret anywhere in strings, keys and nested structures', () => {
    const redactor = createRedactor();
    const key = 'canary-0123456789abcdef';
    redactor.registerSecret(key);
    const out = redactor.redact({ a: [`x${key}y`, { [key]: 1 }], b: new Map([['m', key]]), c: new Set([key]) });
    expect(JSON.stringify(out)).not.toContain(key);
    expect(out).toEqual({ a: [`x${REDACTED}y`, { [REDACTED]: 1 }], b: { m: REDACTED }, c: [REDACTED] });
  });

  it('ignores values too short to be keys so ordinary words survive', () => {
    const redactor = createRedactor();
    redactor.registerSecret('abc');
    redactor.registerSecret('REDACTED');
    expect(redactor.redactText('abc def')).toBe('abc def');
    expect(MIN_SECRET_LENGTH).toBeGreaterThan(3);
  });

  it('removes credential header and field values whatever they look like', () => {
    const redactor = createRedactor();
    const out = redactor.redact({ headers: { Authorization: 'Bearer abc', 'x-api-key': 'k1', 'X-Request-Id': 'r1' }, apiKey: 'k', password: '' });
    expect(out).toEqual({ headers: { Authorization: REDACTED, 'x-api-key': REDACTED, 'X-Request-Id': 'r1' }, apiKey: REDACTED, password: '' });
    expect(redactor.redact({ 'x-goog-api-key': 'g', refresh_token: 'r', clientSecret: 'c', promptTokens: 12, keySource: 'env' })).toEqual({
      'x-goog-api-key': REDACTED,
      refresh_token: REDACTED,
      clientSecret: REDACTED,
      promptTokens: 12,
      keySource: 'env',
    });
  });

  it('removes the password of URLs with user info', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('proxy http://bob:hunter2@proxy.local:3128/ and https://example.com/a@b')).toBe(
      `proxy http://bob:${REDACTED}@proxy.local:3128/ and https://example.com/a@b`,
    );
  });

  it('removes bearer tokens and sk- style keys inside free text', () => {
    const redactor = createRedactor();
    const text = 'sent Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload with key sk-proj-AbCdEfGh1234567890xyz and sk-ant-api03-ZZZZZZZZZZZZZZZZZZ';
    const out = redactor.redactText(text);
    expect(out).toBe(`sent Authorization: Bearer ${REDACTED} with key ${REDACTED} and ${REDACTED}`);
  });

  it('summarises data URIs by media type and byte count', () => {
    const redactor = createRedactor();
    const payload = Buffer.alloc(300, 7).toString('base64');
    expect(redactor.redactText(`img data:image/png;base64,${payload} end`)).toBe('img data:image/png;base64,[300 bytes] end');
    expect(redactor.redactText('data:image/svg+xml;charset=utf-8;base64,AAAA')).toBe('data:image/svg+xml;base64,[3 bytes]');
  });

  it('drops the query string of signed URLs and keeps ordinary ones', () => {
    const redactor = createRedactor();
    const s3 = 'https://bucket.s3.amazonaws.com/a.png?X-Amz-Algorithm=AWS4&X-Amz-Signature=deadbeef&X-Amz-Credential=AKIA';
    expect(redactor.redactText(`GET ${s3} done`)).toBe(`GET https://bucket.s3.amazonaws.com/a.png?${REDACTED} done`);
    expect(redactor.redactText('https://x.blob.core.windows.net/c/b.png?sv=2020&sig=abc%2F')).toBe(`https://x.blob.core.windows.net/c/b.png?${REDACTED}`);
    expect(redactor.redactText('https://example.com/a?page=2&size=10')).toBe('https://example.com/a?page=2&size=10');
  });

  it('summarises binary data, functions, cycles and errors without throwing', () => {
    const redactor = createRedactor();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const error = Object.assign(new Error('failed with sk-abcdefghijklmnopqrstuv'), { code: 'E_X' });
    const out = redactor.redact({ bytes: new Uint8Array(5), fn: () => 1, cyclic, error }) as Record<string, Record<string, unknown>>;
    expect(out.bytes).toBe('[5 bytes]');
    expect(out.fn).toBe('[Function]');
    expect(out.cyclic).toEqual({ name: 'loop', self: '[Circular]' });
    expect(out.error?.message).toBe(`failed with ${REDACTED}`);
    expect(out.error?.code).toBe('E_X');
    expect(String(out.error?.stack)).not.toContain('sk-abcdefghijklmnopqrstuv');
  });

  it('keeps a field named __proto__ as plain data', () => {
    const redactor = createRedactor();
    const out = redactor.redact(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
  });
});

// Arbitrary JSON-ish structures with the secret spliced into strings and keys at random places.
function structureWith(secret: string): fc.Arbitrary<unknown> {
  const text = fc.tuple(fc.string(), fc.boolean(), fc.string()).map(([a, inject, b]) => (inject ? `${a}${secret}${b}` : a + b));
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(text, tie('tree'), { maxKeys: 4 }),
    ),
  }));
  return tree;
}

describe('registered secrets property', () => {
  const secretArb = fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 40, unit: 'grapheme-ascii' }).filter((s) => !REDACTED.includes(s));

  it('a registered secret never survives redaction of arbitrary nested structures', () => {
    fc.assert(
      fc.property(secretArb, fc.array(secretArb, { maxLength: 3 }), fc.context(), (secret, others, ctx) =>
        fc.assert(
          fc.property(structureWith(secret), (value) => {
            const redactor = createRedactor();
            for (const other of others) redactor.registerSecret(other);
            redactor.registerSecret(secret);
            const serialized = JSON.stringify(redactor.redact(value));
            ctx.log(serialized);
            expect(serialized.includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
          }),
          { numRuns: 20 },
        ),
      ),
      { numRuns: 50 },
    );
  });

  it('redactText output never contains a registered secret even when text is built around the marker', () => {
    fc.assert(
      fc.property(secretArb, fc.array(fc.oneof(fc.constant(REDACTED), fc.string(), fc.constant('sk-'), fc.constant('Bearer '))), (secret, parts) => {
        const redactor = createRedactor();
        redactor.registerSecret(secret);
        const text = parts.join(secret.slice(0, Math.ceil(secret.length / 2))) + secret + parts.join(secret.slice(Math.ceil(secret.length / 2)));
        expect(redactor.redactText(text).includes(secret)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

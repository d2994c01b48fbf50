import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../../platform/log/redact';
import { argumentRecord, boundUtf8, MAX_ARGUMENT_RECORD_BYTES } from './argumentRecord';

const bytes = (text: string): number => new TextEncoder().encode(text).byteLength;

describe('the redacted record of raw tool arguments', () => {
  it('keeps the arguments for diagnosis but not keys, secret fields or absolute paths', () => {
    const redactor = createRedactor();
    redactor.registerSecret('registered-key-123456');
    const raw = JSON.stringify({
      intent: 'drill four holes', api_key: 'plain-value', note: 'key sk-abcdefghijklmnopqrstuv and registered-key-123456', source: '/home/alice/parts/flange.step',
      win: 'C:\\Users\\alice\\part.step', url: 'file:///Users/alice/x.dxf', pointer: '/claims/0/expected', nested: { Authorization: 'Bearer abcdefghijkl' },
    });
    const record = argumentRecord(raw, redactor);
    expect(record).toMatchObject({ truncated: false, unparsed: false });
    const kept = JSON.parse(record.text) as Record<string, unknown>;
    expect(kept).toMatchObject({ intent: 'drill four holes', api_key: '[REDACTED]', source: '[PATH]', win: '[PATH]', url: '[PATH]', pointer: '/claims/0/expected', nested: { Authorization: '[REDACTED]' } });
    for (const secret of ['plain-value', 'sk-abcdefghijklmnopqrstuv', 'registered-key-123456', 'alice']) expect(record.text).not.toContain(secret);
  });

  it('keeps text that is not JSON (a format error) as redacted text, marked unparsed', () => {
    const record = argumentRecord('{"api_key": "abc123secret", "path": "/tmp/x/y.json", oops', createRedactor());
    expect(record.unparsed).toBe(true);
    expect(record.text).toContain('"api_key": "[REDACTED]');
    expect(record.text).not.toContain('abc123secret');
    expect(record.text).not.toContain('/tmp/x');
  });

  it('is never longer than the bound and never splits a character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 6000 }), fc.integer({ min: 16, max: 5000 }), (text, max) => {
        const cut = boundUtf8(text, max);
        expect(bytes(cut.text)).toBeLessThanOrEqual(max);
        expect(cut.truncated).toBe(bytes(text) > max);
        if (!cut.truncated) expect(cut.text).toBe(text);
        expect(cut.text.includes('\uFFFD') && !text.includes('\uFFFD')).toBe(false);
      }),
    );
  });

  it('never lets a planted key or home path through, whatever surrounds it, and stays within 4 KiB (property)', () => {
    const redactor = createRedactor();
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.string({ maxLength: 3000 }), fc.boolean(), (before, after, asJson) => {
        const planted = `${before} sk-PLANTEDplantedPLANTED1234 /home/bob/secret-dir ${after}`;
        const raw = asJson ? JSON.stringify({ text: planted }) : planted;
        const record = argumentRecord(raw, redactor);
        expect(bytes(record.text)).toBeLessThanOrEqual(MAX_ARGUMENT_RECORD_BYTES);
        expect(record.text).not.toContain('sk-PLANTEDplantedPLANTED1234');
        expect(record.text).not.toContain('/home/bob');
      }),
      { numRuns: 200 },
    );
  });
});

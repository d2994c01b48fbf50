import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBinaryTags } from './binaryTags';
import { buildDocument } from './documentLoader';
import { readTextTags } from './tags';
import { writeDxf } from './writer';

const FIXTURES = path.resolve('electron/testSupport/fixtures/dxf');

describe('writeDxf', () => {
  it.each(readdirSync(FIXTURES).filter((f) => f.endsWith('.dxf') && !f.startsWith('bad_binary')))('reproduces every tag of %s when nothing was added', (name) => {
    const read = readTextTags(new TextDecoder('latin1').decode(readFileSync(path.join(FIXTURES, name))));
    const doc = buildDocument(read, { codePage: 'ANSI_1252' });
    const again = readTextTags(writeDxf(doc, { entities: [], layerEntries: [] }));
    expect(again.tags.codes).toEqual(read.tags.codes);
    expect(again.tags.values).toEqual(read.tags.values);
  });
});

describe('readBinaryTags', () => {
  const SENTINEL = Buffer.from('AutoCAD Binary DXF\r\n\x1a\x00', 'latin1');
  const tagArb = fc.oneof(
    fc.record({ code: fc.integer({ min: 1, max: 9 }), value: fc.string({ maxLength: 12 }).filter((s) => !s.includes('\0')) }),
    fc.record({ code: fc.integer({ min: 10, max: 59 }), value: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) }),
    fc.record({ code: fc.integer({ min: 60, max: 79 }), value: fc.integer({ min: -32768, max: 32767 }).map(String) }),
    fc.record({ code: fc.integer({ min: 90, max: 99 }), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(String) }),
  );

  function encode(tags: { code: number; value: string }[]): Uint8Array {
    const parts: Buffer[] = [SENTINEL];
    for (const { code, value } of [{ code: 0, value: 'SECTION' }, ...tags, { code: 0, value: 'EOF' }]) {
      const head = Buffer.alloc(2);
      head.writeInt16LE(code);
      parts.push(head);
      if (code < 10) parts.push(Buffer.from(`${value}\0`, 'utf8'));
      else if (code < 60) {
        const b = Buffer.alloc(8);
        b.writeDoubleLE(Number(value));
        parts.push(b);
      } else if (code < 80) {
        const b = Buffer.alloc(2);
        b.writeInt16LE(Number(value));
        parts.push(b);
      } else {
        const b = Buffer.alloc(4);
        b.writeInt32LE(Number(value));
        parts.push(b);
      }
    }
    return Buffer.concat(parts);
  }

  it('reads back random binary tag streams exactly', () => {
    fc.assert(
      fc.property(fc.array(tagArb, { maxLength: 40 }), (tags) => {
        const read = readBinaryTags(encode(tags), (bytes) => new TextDecoder().decode(bytes));
        expect(read.tags.codes).toEqual([0, ...tags.map((t) => t.code), 0]);
        expect(read.tags.values.slice(1, -1).map((v, i) => (tags[i]!.code >= 10 && tags[i]!.code < 60 ? Number(v) : v))).toEqual(tags.map((t) => (t.code >= 10 && t.code < 60 ? Number(t.value) : t.value)));
        expect(read.problems).toEqual([]);
      }),
    );
  });

  it('stops with a problem instead of reading past truncated data', () => {
    fc.assert(
      fc.property(fc.array(tagArb, { minLength: 1, maxLength: 20 }), fc.nat(), (tags, cut) => {
        const bytes = encode(tags);
        const truncated = bytes.subarray(0, SENTINEL.length + (cut % (bytes.length - SENTINEL.length)));
        const read = readBinaryTags(truncated, (b) => new TextDecoder().decode(b));
        expect(read.problems.length).toBeGreaterThan(0);
      }),
    );
  });
});

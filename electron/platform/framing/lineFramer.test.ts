import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLineFramer, encodeFrame, TAIL_CHARS, type FrameItem } from './lineFramer';

const utf8 = new TextEncoder();

/** Cuts `bytes` at the given (sorted, deduplicated) positions. */
function cut(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const points = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

function lines(items: FrameItem[]): string[] {
  return items.map((item) => (item.kind === 'line' ? item.text : `<${item.kind}>`));
}

// Messages as a JSON-RPC peer sends them: no raw newline inside, any Unicode including CJK and emoji.
const messageArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => !s.includes('\n') && !s.includes('\r') && s.trim().length > 0);

describe('lineFramer', () => {
  it('returns the same messages for any chunking of any UTF-8 stream, with \\n or \\r\\n terminators', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(messageArb, fc.boolean()), { minLength: 1, maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (messages, cuts) => {
        const stream = utf8.encode(messages.map(([text, crlf]) => `${text}${crlf ? '\r\n' : '\n'}`).join(''));
        const framer = createLineFramer({ maxFrameBytes: 1024 });
        const out = cut(stream, cuts).flatMap((piece) => framer.push(piece));
        expect(lines(out)).toEqual(messages.map(([text]) => text));
        expect(framer.bufferedBytes).toBe(0);
      }),
    );
  });

  it('splits a multi-byte character between two chunks without corrupting it', () => {
    const framer = createLineFramer();
    const bytes = utf8.encode('图名:审图\n');
    expect(framer.push(bytes.subarray(0, 2))).toEqual([]);
    expect(framer.push(bytes.subarray(2, 5))).toEqual([]);
    expect(framer.push(bytes.subarray(5))).toEqual([{ kind: 'line', text: '图名:审图' }]);
  });

  it('skips empty and blank lines and returns several messages from one chunk', () => {
    const framer = createLineFramer();
    expect(lines(framer.push(utf8.encode('\n\r\n  \n{"a":1}\n\n{"b":2}\r\n')))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reports an oversized line once, keeps memory bounded and resumes at the next line', () => {
    const framer = createLineFramer({ maxFrameBytes: 10 });
    const out: FrameItem[] = [];
    for (let i = 0; i < 100; i += 1) {
      out.push(...framer.push(utf8.encode('xxxxxxxxxxxxxxxxxxxx')));
      expect(framer.bufferedBytes).toBeLessThanOrEqual(11);
    }
    out.push(...framer.push(utf8.encode('yy\nshort\n')));
    // The head keeps the line's first characters (here all it had seen), the end its last ones.
    expect(out).toEqual([{ kind: 'overflow', maxFrameBytes: 10, bytesDropped: 20, head: 'xxxxxxxxxxxxxxxxxxxx' }, { kind: 'overflow-end', tail: `${'x'.repeat(TAIL_CHARS - 2)}yy` }, { kind: 'line', text: 'short' }]);
  });

  it("gives the last characters of any oversized line, however it is chunked, once and after its overflow", () => {
    const longLine = fc.array(messageArb, { minLength: 1, maxLength: 80 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(longLine, fc.boolean(), fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 8, max: 64 }), (line, crlf, cuts, maxFrameBytes) => {
        fc.pre(utf8.encode(line).length > maxFrameBytes);
        const framer = createLineFramer({ maxFrameBytes });
        const out = cut(utf8.encode(`${line}${crlf ? '\r\n' : '\n'}after\n`), cuts).flatMap((piece) => framer.push(piece));
        const tails = out.flatMap((item) => (item.kind === 'overflow' && item.tail !== undefined ? [item.tail] : item.kind === 'overflow-end' ? [item.tail] : []));
        expect(out[0]!.kind).toBe('overflow');
        expect(tails).toEqual([line.slice(-TAIL_CHARS)]);
        expect(lines(out).at(-1)).toBe('after');
      }),
    );
  });

  it('accepts a line of exactly maxFrameBytes and refuses one byte more', () => {
    const framer = createLineFramer({ maxFrameBytes: 4 });
    expect(lines(framer.push(utf8.encode('abcd\r\nabcde\n')))).toEqual(['abcd', '<overflow>']);
  });

  it('never throws and never buffers more than the cap on random garbage', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 30 }), fc.integer({ min: 1, max: 64 }), (chunks, maxFrameBytes) => {
        const framer = createLineFramer({ maxFrameBytes });
        for (const chunk of chunks) {
          const items = framer.push(chunk);
          expect(framer.bufferedBytes).toBeLessThanOrEqual(maxFrameBytes + 1);
          for (const item of items) if (item.kind === 'line') expect(utf8.encode(item.text).length).toBeLessThanOrEqual(maxFrameBytes);
        }
      }),
    );
  });

  it('reports invalid UTF-8 as its own item and keeps framing', () => {
    const framer = createLineFramer();
    const out = framer.push(new Uint8Array([0xff, 0xfe, 0x0a, 0x61, 0x0a]));
    expect(out).toEqual([{ kind: 'invalid-utf8', byteLength: 2 }, { kind: 'line', text: 'a' }]);
  });

  it('encodes a message containing newlines as exactly one frame', () => {
    const frame = encodeFrame({ text: 'line1\nline2\r\n图' });
    const framer = createLineFramer();
    const out = framer.push(frame);
    expect(out).toHaveLength(1);
    expect(JSON.parse((out[0] as { text: string }).text)).toEqual({ text: 'line1\nline2\r\n图' });
  });

  it('refuses a non-positive frame cap', () => {
    expect(() => createLineFramer({ maxFrameBytes: 0 })).toThrow(RangeError);
  });
});

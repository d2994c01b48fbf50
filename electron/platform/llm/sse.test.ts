import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, readSseEvents, type SseEvent } from './sse';

function parseInChunks(text: string, cuts: number[]): SseEvent[] {
  const parser = createSseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    events.push(...parser.push(text.slice(start, cut)));
    start = cut;
  }
  events.push(...parser.push(text.slice(start)));
  events.push(...parser.end());
  return events;
}

const lineEnding = fc.constantFrom('\n', '\r\n', '\r');
const dataValue = fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, ''));

/** A valid stream of events built from random data lines, names, comments and line endings. */
const streamArbitrary = fc
  .array(fc.record({ event: fc.option(fc.constantFrom('message_start', 'delta', 'ping'), { nil: undefined }), lines: fc.array(dataValue, { minLength: 1, maxLength: 3 }), comment: fc.boolean(), eol: lineEnding }), {
    maxLength: 8,
  })
  .map((events) => {
    const text = events
      .map((e) => [...(e.comment ? [': keep-alive'] : []), ...(e.event ? [`event: ${e.event}`] : []), ...e.lines.map((l) => `data: ${l}`), ''].join(e.eol) + e.eol)
      .join('');
    const expected = events.map((e) => ({ event: e.event ?? 'message', data: e.lines.join('\n') }));
    return { text, expected };
  });

describe('SSE parser', () => {
  it('parses a stream identically however it is chunked', () => {
    fc.assert(
      fc.property(streamArbitrary, fc.array(fc.nat(), { maxLength: 12 }), ({ text, expected }, rawCuts) => {
        const cuts = rawCuts.map((c) => (text.length === 0 ? 0 : c % (text.length + 1)));
        expect(parseInChunks(text, cuts)).toEqual(expected);
      }),
    );
  });

  it('joins multi-line data, drops one leading space and ignores comments and unknown fields', () => {
    const events = parseInChunks(': hi\nevent: x\ndata:a\ndata:  b\nid: 7\nretry: 10\n\n', []);
    expect(events).toEqual([{ event: 'x', data: 'a\n b' }]);
  });

  it('discards an event whose terminating blank line never arrived', () => {
    expect(parseInChunks('data: complete\n\ndata: cut off', [])).toEqual([{ event: 'message', data: 'complete' }]);
  });

  it('keeps multi-byte UTF-8 characters intact when a byte stream splits them', async () => {
    const bytes = new TextEncoder().encode('data: 图纸审查✓\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    for await (const event of readSseEvents(stream)) events.push(event);
    expect(events).toEqual([{ event: 'message', data: '图纸审查✓' }]);
  });
});

/** One server-sent event (WHATWG "text/event-stream" dispatch). */
export interface SseEvent {
  /** Value of the last `event:` field, "message" when none was given. */
  event: string;
  /** `data:` lines joined with "\n". */
  data: string;
}

/** Incremental SSE parser: feed decoded text in any chunking, collect complete events. */
export interface SseParser {
  /** Consumes a chunk and returns the events it completed. */
  push(chunk: string): SseEvent[];
  /** Flushes at end of stream; an event without its terminating blank line is discarded, as the spec requires. */
  end(): SseEvent[];
}

/**
 * Creates an SSE parser following the WHATWG event-stream rules: lines end with CRLF, LF or
 * CR; a blank line dispatches; `:` lines are comments; one optional space after the colon is
 * dropped. A CR at the end of a chunk is held back because its LF may arrive in the next one.
 */
export function createSseParser(): SseParser {
  let buffer = '';
  let eventName = '';
  let dataLines: string[] = [];

  function takeLine(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (dataLines.length > 0) out.push({ event: eventName || 'message', data: dataLines.join('\n') });
      eventName = '';
      dataLines = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') dataLines.push(value);
    else if (field === 'event') eventName = value;
    // id and retry are irrelevant for one-shot model replies.
  }

  function drain(final: boolean): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer[i];
      if (ch !== '\n' && ch !== '\r') continue;
      if (ch === '\r' && i === buffer.length - 1 && !final) break;
      takeLine(buffer.slice(start, i), out);
      if (ch === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
    return out;
  }

  return {
    push(chunk) {
      buffer += chunk;
      return drain(false);
    },
    end() {
      const out = drain(true);
      buffer = '';
      eventName = '';
      dataLines = [];
      return out;
    },
  };
}

/**
 * Reads a byte stream as SSE events. UTF-8 is decoded in streaming mode so multi-byte
 * characters split across network chunks stay intact.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder('utf-8');
  const parser = createSseParser();
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    finished = true;
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    // A consumer that stops early (e.g. at [DONE]) must not leave the socket half-read; a
    // failing cancel only means the stream is already gone, so its error carries nothing.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

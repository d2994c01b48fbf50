/**
 * Byte-level newline framing of the cad_mcp_frame protocol (CadLink) and of the MCP stdio
 * servers: one JSON-RPC message per line, `\n` is the only boundary. Product-agnostic, so it
 * lives in platform: an MCP server that has nothing to do with a CAD (cadsight-vision) frames
 * its stdin without loading the CadLink slice and the drawing renderer behind it.
 * Works on raw bytes (not on decoded strings) because a TCP chunk can end in the middle of a
 * multi-byte UTF-8 character; `\n` (0x0A) never occurs inside a multi-byte sequence, so
 * splitting on the byte is always safe and each line is decoded whole.
 */

/** Default cap on one frame: large enough for a 4K PNG screenshot in base64. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** One item produced by the framer, in wire order. */
export type FrameItem =
  /** A complete, non-empty line (without `\n` / `\r\n`), decoded as UTF-8. */
  | { kind: 'line'; text: string }
  /**
   * A line longer than maxFrameBytes, reported as soon as it crosses the cap. Its bytes are
   * dropped (memory stays bounded) and the framer skips to the next `\n`; `bytesDropped`
   * counts what had been seen of it when it was reported. `tail` (the line's last characters)
   * is set when the line's end was already in hand; otherwise an `overflow-end` follows once
   * the `\n` arrives.
   */
  | { kind: 'overflow'; maxFrameBytes: number; bytesDropped: number; head: string; tail?: string }
  /**
   * The end of an oversized line reported earlier without its `tail`: its last characters
   * (at most TAIL_CHARS, `\r` of a `\r\n` removed), so a protocol can read what a writer put
   * last (the official MCP SDK writes a request's id after its params).
   */
  | { kind: 'overflow-end'; tail: string }
  /** A complete line that is not valid UTF-8 (the peer sent garbage); its raw length is kept. */
  | { kind: 'invalid-utf8'; byteLength: number };

/** Stateful splitter of a byte stream into lines. Not shared between connections. */
export interface LineFramer {
  /** Feeds the next chunk; returns every item completed by it, in order. Never throws. */
  push(chunk: Uint8Array): FrameItem[];
  /** Bytes of the unfinished line held (decoded) so far; always <= maxFrameBytes + 1, the +1 being a `\r`. */
  readonly bufferedBytes: number;
}

export interface LineFramerOptions {
  /** Largest accepted line in bytes, terminator excluded. Default DEFAULT_MAX_FRAME_BYTES. */
  maxFrameBytes?: number;
}

/** Characters of an oversized line kept for its `head`. */
const HEAD_CHARS = 1024;
/** Characters of an oversized line kept for its `tail`. */
export const TAIL_CHARS = 1024;
/** Raw bytes kept while skipping: TAIL_CHARS UTF-16 units of up to 3 bytes each, a `\r`, and a cut character's first bytes. */
const TAIL_BYTES = TAIL_CHARS * 3 + 4;

/** The last `chars` characters of UTF-8 bytes that may start inside a character (its stray bytes are dropped). */
function lastChars(bytes: Uint8Array, chars: number): string {
  let start = 0;
  // Continuation bytes (10xxxxxx) at the start belong to a character cut off by the window.
  while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++;
  return new TextDecoder('utf-8').decode(bytes.subarray(start)).slice(-chars);
}

/** The trailing bytes of `bytes` that begin a UTF-8 character not yet complete (empty when none). */
function unfinishedCharacter(bytes: Uint8Array): Uint8Array {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - i < length ? bytes.subarray(i) : new Uint8Array(0);
  }
  return new Uint8Array(0);
}

export function createLineFramer(options: LineFramerOptions = {}): LineFramer {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 1) throw new RangeError(`maxFrameBytes must be a positive integer, got ${maxFrameBytes}`);
  const newDecoder = (): TextDecoder => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  // The unfinished line is decoded chunk by chunk (the streaming decoder holds a split
  // character's first bytes): for a 10 MB frame this is ~3x faster than concatenating the
  // bytes and decoding once, and nothing is copied.
  let decoder = newDecoder();
  let pending: string[] = [];
  let pendingBytes = 0;
  let lastByte = -1;
  // The current line held bytes that are not UTF-8; it is reported when its `\n` arrives.
  let invalid = false;
  // While skipping the rest of an oversized line, its bytes are dropped as they arrive; only
  // the last TAIL_BYTES of them are kept for the `overflow-end` item.
  let skipping = false;
  let skippedTail = new Uint8Array(0);
  // The last (up to 3) bytes given to the decoder: the start of a character it may still hold.
  let recentBytes = new Uint8Array(0);

  /** Keeps the last TAIL_BYTES of the skipped bytes and `part`. */
  function keepTail(part: Uint8Array): void {
    if (part.length >= TAIL_BYTES) {
      skippedTail = part.slice(part.length - TAIL_BYTES);
      return;
    }
    const keep = Math.min(skippedTail.length, TAIL_BYTES - part.length);
    const next = new Uint8Array(keep + part.length);
    next.set(skippedTail.subarray(skippedTail.length - keep));
    next.set(part, keep);
    skippedTail = next;
  }

  /**
   * Seeds the tail window when a line crosses the cap: the last characters decoded so far, the
   * first bytes of a character the decoder still holds (its rest may come in `part` or later
   * chunks), then `part`'s bytes. The window is decoded only when the line ends.
   */
  function startTail(part: Uint8Array): void {
    let held = '';
    for (let i = pending.length - 1; i >= 0 && held.length < TAIL_CHARS + 2; i--) held = pending[i]!.slice(-(TAIL_CHARS + 2)) + held;
    // Two spare units: a surrogate pair cut at the window's start stays outside the TAIL_CHARS given back.
    skippedTail = utf8.encode(held.slice(-(TAIL_CHARS + 2)));
    keepTail(invalid ? new Uint8Array(0) : unfinishedCharacter(recentBytes));
    keepTail(part);
  }

  /** A finished line's last characters without the `\r` of a `\r\n` terminator. */
  const withoutCr = (tail: string) => (tail.endsWith('\r') ? tail.slice(0, -1) : tail);

  function decodeInto(part: Uint8Array, final: boolean): void {
    if (invalid) return;
    try {
      const text = decoder.decode(part, { stream: !final });
      if (text.length > 0) pending.push(text);
    } catch {
      invalid = true;
      pending = [];
      decoder = newDecoder();
    }
  }

  /** The line's first characters (at most HEAD_CHARS), so a protocol can still read e.g. an id from them. */
  function headOf(part: Uint8Array): string {
    let head = '';
    for (const piece of pending) {
      head += piece;
      if (head.length >= HEAD_CHARS) return head.slice(0, HEAD_CHARS);
    }
    return (head + new TextDecoder('utf-8').decode(part.subarray(0, HEAD_CHARS * 4))).slice(0, HEAD_CHARS);
  }

  /**
   * The last characters of a line over the cap whose end arrived with the chunk that crossed it:
   * the decoded pieces held plus `tail` (a split character is finished by the decoder).
   */
  function tailOfWholeLine(tail: Uint8Array): string {
    let end: string;
    if (tail.length > TAIL_BYTES || invalid) end = lastChars(tail.subarray(tail.length - Math.min(tail.length, TAIL_BYTES)), TAIL_CHARS + 1);
    else {
      try {
        end = decoder.decode(tail);
      } catch {
        end = lastChars(tail, TAIL_CHARS + 1);
      }
    }
    for (let i = pending.length - 1; i >= 0 && end.length <= TAIL_CHARS; i--) end = pending[i]!.slice(-(TAIL_CHARS + 1)) + end;
    return withoutCr(end.slice(-(TAIL_CHARS + 1))).slice(-TAIL_CHARS);
  }

  function reset(): void {
    recentBytes = new Uint8Array(0);
    pending = [];
    pendingBytes = 0;
    lastByte = -1;
    invalid = false;
  }

  function finishLine(tail: Uint8Array, out: FrameItem[]): void {
    if (skipping) {
      // Already reported when the line crossed the cap; its end gives the tail and resumes framing.
      keepTail(tail);
      out.push({ kind: 'overflow-end', tail: withoutCr(lastChars(skippedTail, TAIL_CHARS + 2)).slice(-TAIL_CHARS) });
      skipping = false;
      skippedTail = new Uint8Array(0);
      reset();
      return;
    }
    const endsWithCr = (tail.length > 0 ? tail[tail.length - 1] : lastByte) === CARRIAGE_RETURN;
    const lineBytes = pendingBytes + tail.length - (endsWithCr ? 1 : 0);
    if (lineBytes > maxFrameBytes) {
      out.push({ kind: 'overflow', maxFrameBytes, bytesDropped: lineBytes, head: headOf(tail), tail: tailOfWholeLine(tail) });
      decoder = newDecoder();
      reset();
      return;
    }
    decodeInto(tail, true);
    if (invalid) {
      out.push({ kind: 'invalid-utf8', byteLength: lineBytes });
      reset();
      return;
    }
    let text = pending.length === 1 ? pending[0]! : pending.join('');
    reset();
    if (endsWithCr) text = text.slice(0, -1);
    // Blank lines are keep-alives or stray terminators, not messages.
    if (text.length > 0 && (text.length > 64 || text.trim().length > 0)) out.push({ kind: 'line', text });
  }

  function keepPartial(part: Uint8Array, out: FrameItem[]): void {
    if (part.length === 0) return;
    if (skipping) {
      keepTail(part);
      return;
    }
    // +1 tolerates the `\r` of a `\r\n` terminator that may still be in flight.
    if (pendingBytes + part.length > maxFrameBytes + 1) {
      // Reported now, not at the line's end: a peer may never send that `\n`.
      out.push({ kind: 'overflow', maxFrameBytes, bytesDropped: pendingBytes + part.length, head: headOf(part) });
      skipping = true;
      startTail(part);
      decoder = newDecoder();
      reset();
      return;
    }
    decodeInto(part, false);
    pendingBytes += part.length;
    lastByte = part[part.length - 1]!;
    const recent = new Uint8Array(recentBytes.length + Math.min(part.length, 3));
    recent.set(recentBytes);
    recent.set(part.subarray(part.length - Math.min(part.length, 3)), recentBytes.length);
    recentBytes = recent.slice(-3);
  }

  return {
    push(chunk) {
      const out: FrameItem[] = [];
      let start = 0;
      for (;;) {
        const end = chunk.indexOf(NEWLINE, start);
        if (end === -1) break;
        finishLine(chunk.subarray(start, end), out);
        start = end + 1;
      }
      keepPartial(chunk.subarray(start), out);
      return out;
    },
    get bufferedBytes() {
      return pendingBytes;
    },
  };
}

/** Serializes one message as a frame. JSON.stringify escapes `\n`, so a frame is one line. */
export function encodeFrame(message: unknown): Uint8Array {
  return utf8.encode(`${JSON.stringify(message)}\n`);
}

// TextEncoder is stateless, so one shared instance is not mutable shared state.
const utf8 = new TextEncoder();

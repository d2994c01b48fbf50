import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createLineFramer, type FrameItem, type LineFramer } from '../../platform/framing/lineFramer';
import type { Logger } from '../../platform/log/types';

/**
 * Largest stdin line the MCP servers accept: room for the base64 caps of the tool schemas
 * (MCP_MAX_INLINE_BASE64_BYTES) plus the JSON-RPC envelope.
 */
export const MCP_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Total inline base64/data-URI text one tool call may carry; bigger inputs go by path or URL. */
export const MCP_MAX_INLINE_BASE64_BYTES = 48 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The id of a JSON-RPC request read from the first characters of its line: a top-level "id"
 * written before "params" (as most clients outside the TypeScript SDK do, which writes it last).
 * Only the object's first level is searched, so an "id" inside params never matches. Null when
 * the id is not there.
 */
export function requestIdFromHead(head: string): string | number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < head.length; i++) {
    const c = head[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      if (depth === 1 && head.startsWith('"id"', i)) {
        const value = /^"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(head.slice(i));
        if (value) return value[1]!.startsWith('"') ? (JSON.parse(value[1]!) as string) : Number(value[1]);
      }
      inString = true;
    }
  }
  return null;
}

/**
 * The id of a JSON-RPC request read from the last characters of its line: a top-level "id"
 * written as the object's last member, as the official TypeScript SDK writes every request
 * (`{"method":…,"params":…,"jsonrpc":"2.0","id":7}`). In valid JSON a `,"id":` whose quotes are
 * not escaped is structural, and the member closed by the line's final `}` is top-level, so an
 * "id" inside params never matches. Null when the line does not end that way.
 */
export function requestIdFromTail(tail: string): string | number | null {
  const value = /,\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  if (!value) return null;
  const id = JSON.parse(value[1]!) as string | number;
  return typeof id === 'number' && !Number.isFinite(id) ? null : id;
}

/**
 * The MCP stdio server transport of cadsight-vision and cadsight-cad-bridge. The SDK's own one
 * closes itself when more than 10 MiB are buffered (the process then exits 0 without a word)
 * and drops malformed lines silently. This one frames stdin with the byte-level line framer,
 * answers an oversized line with -32600 carrying the request's id when its start or its end
 * holds one, and a malformed one with -32700 (id null, as JSON-RPC prescribes when the id
 * cannot be read), logs both, and keeps serving.
 */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly framer: LineFramer;
  private started = false;
  /** The refusal of an oversized line whose id was not at its start, sent when the line ends. */
  private oversizedAwaitingEnd: string | undefined;

  constructor(
    private readonly options: { stdin?: Readable; stdout?: Writable; maxLineBytes?: number; log?: Logger } = {},
  ) {
    this.framer = createLineFramer({ maxFrameBytes: options.maxLineBytes ?? MCP_MAX_LINE_BYTES });
  }

  private get stdin(): Readable {
    return this.options.stdin ?? process.stdin;
  }

  private get stdout(): Writable {
    return this.options.stdout ?? process.stdout;
  }

  private readonly onData = (chunk: Buffer): void => {
    for (const item of this.framer.push(chunk)) this.handle(item);
  };

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  private reject(code: number, message: string, id: string | number | null = null): void {
    this.options.log?.warn('mcp stdio message refused', { code, reason: message });
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private handle(item: FrameItem): void {
    if (item.kind === 'overflow') {
      const message = `The message is larger than ${item.maxFrameBytes} bytes and was dropped; pass images and documents as file paths or URLs instead of inline base64.`;
      const id = requestIdFromHead(item.head) ?? (item.tail === undefined ? null : requestIdFromTail(item.tail));
      // No id at the start and the line still arriving: the answer waits for its end, where
      // SDK clients write the id (a line that never ends is no request to answer).
      if (id === null && item.tail === undefined) this.oversizedAwaitingEnd = message;
      else this.reject(INVALID_REQUEST, message, id);
      return;
    }
    if (item.kind === 'overflow-end') {
      if (this.oversizedAwaitingEnd !== undefined) this.reject(INVALID_REQUEST, this.oversizedAwaitingEnd, requestIdFromTail(item.tail));
      this.oversizedAwaitingEnd = undefined;
      return;
    }
    if (item.kind === 'invalid-utf8') {
      this.reject(PARSE_ERROR, 'Parse error: the message is not valid UTF-8.');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch {
      this.reject(PARSE_ERROR, 'Parse error: the message is not valid JSON.');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === 'object' && value !== null && 'id' in value ? (value as { id: unknown }).id : null;
      this.reject(INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 message.', typeof id === 'string' || typeof id === 'number' ? id : null);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const line = `${JSON.stringify(message)}\n`;
    if (this.stdout.write(line)) return;
    await new Promise<void>((resolve) => this.stdout.once('drain', resolve));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }
}

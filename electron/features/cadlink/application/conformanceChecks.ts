import { JSON_RPC_ERROR, isRecord, makeRequest, type JsonRpcId } from '../domain/protocol/jsonRpc';
import { parseToolResult, parseToolsList } from '../domain/protocol/mcpTools';
import type { ProbeConnection, ProbeReply } from './probeConnection';

/**
 * The individual checks of `cadsight verify-cad`: each one is a thing the cad_mcp_frame
 * decisions require of the plugin, written so that the known old-plugin faults (recv(2048)
 * truncation, replies to notifications, ids coerced to numbers) each fail a named row.
 */

export interface CheckContext {
  /** A fresh connection per check, so one fault does not cascade into the next rows. */
  open(): Promise<ProbeConnection>;
  /** How long to wait for one reply. */
  replyTimeoutMs: number;
  /** How long silence must last to count as "no reply". */
  silenceMs: number;
  /** Pauses between the pieces of a split request. */
  sleep(ms: number): Promise<void>;
}

export interface ConformanceCheck {
  id: string;
  title: string;
  run(context: CheckContext): Promise<{ passed: boolean; detail: string }>;
}

// A name no plugin should have: calling it must produce isError or a JSON-RPC error.
const MISSING_TOOL = 'cadsight_verify_no_such_tool';

const frame = (id: JsonRpcId, method: string, params?: unknown): string => `${JSON.stringify(makeRequest(id, method, params))}\n`;
const pass = (detail: string) => ({ passed: true, detail });
const fail = (detail: string) => ({ passed: false, detail });

/** One-line description of what came back, for the detail column. */
export function describeReply(reply: ProbeReply): string {
  switch (reply.kind) {
    case 'timeout':
      return 'no reply before the timeout';
    case 'closed':
      return 'the server closed the connection';
    case 'invalid-frame':
      return reply.detail;
    case 'not-json':
      return `a non-JSON line: ${clip(reply.raw)}`;
    case 'json':
      return clip(reply.raw);
  }
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

function replyId(reply: ProbeReply): unknown {
  return reply.kind === 'json' && isRecord(reply.value) ? reply.value.id : undefined;
}

function errorCode(reply: ProbeReply): number | undefined {
  if (reply.kind !== 'json' || !isRecord(reply.value) || !isRecord(reply.value.error)) return undefined;
  return typeof reply.value.error.code === 'number' ? reply.value.error.code : undefined;
}

function hasResult(reply: ProbeReply): reply is { kind: 'json'; value: { result: unknown }; raw: string } {
  return reply.kind === 'json' && isRecord(reply.value) && 'result' in reply.value;
}

function describeId(id: unknown): string {
  return id === null ? 'null' : `${JSON.stringify(id)} (${typeof id})`;
}

/** Why `reply` is not the reply to `id` (id type and value compared), or null when it is. */
function idMismatch(reply: ProbeReply, id: JsonRpcId): string | null {
  const got = replyId(reply);
  if (got === id) return null;
  return got === undefined ? `expected a reply with id ${describeId(id)}, got ${describeReply(reply)}` : `expected id ${describeId(id)}, got id ${describeId(got)} in ${describeReply(reply)}`;
}

/** Sends one request on a fresh connection and returns its first reply. */
async function exchange(context: CheckContext, data: string): Promise<ProbeReply> {
  const probe = await context.open();
  try {
    await probe.send(data);
    return await probe.next(context.replyTimeoutMs);
  } finally {
    probe.close();
  }
}

/** A reply is "proper" for a request when it carries the id and is not a framing/parse failure. */
function properReplyTo(reply: ProbeReply, id: JsonRpcId): { passed: boolean; detail: string } {
  const mismatch = idMismatch(reply, id);
  if (mismatch) return fail(mismatch);
  const code = errorCode(reply);
  if (code === JSON_RPC_ERROR.parseError || code === JSON_RPC_ERROR.invalidRequest) return fail(`the request was not read whole: error ${code} (${describeReply(reply)})`);
  return pass(code === undefined ? 'answered with a result' : `answered with JSON-RPC error ${code}`);
}

export const CONFORMANCE_CHECKS: readonly ConformanceCheck[] = [
  {
    id: 'tools-list',
    title: 'tools/list returns a valid tool list',
    async run(context) {
      const reply = await exchange(context, frame(1, 'tools/list'));
      const mismatch = idMismatch(reply, 1);
      if (mismatch || !hasResult(reply)) return fail(mismatch ?? `expected a result, got ${describeReply(reply)}`);
      const parsed = parseToolsList(reply.value.result);
      return parsed.ok ? pass(`${parsed.tools.length} tools`) : fail(`result is not {tools:[{name,...}]}: ${parsed.issue}`);
    },
  },
  {
    id: 'two-in-one-packet',
    title: 'two requests in one packet get two replies',
    async run(context) {
      const probe = await context.open();
      try {
        await probe.send(frame('pair-a', 'tools/list') + frame('pair-b', 'tools/list'));
        const ids = [replyId(await probe.next(context.replyTimeoutMs)), replyId(await probe.next(context.replyTimeoutMs))];
        return ids.includes('pair-a') && ids.includes('pair-b') ? pass('both answered') : fail(`replies carried ids ${ids.map(describeId).join(', ')}`);
      } finally {
        probe.close();
      }
    },
  },
  {
    id: 'split-request',
    title: 'one request split over several packets gets one reply',
    async run(context) {
      const probe = await context.open();
      try {
        // Cut inside the two-byte "é" and the three-byte "图": framing must work on bytes.
        const text = frame('split-é-图', 'tools/list');
        const encoder = new TextEncoder();
        const bytes = encoder.encode(text);
        const inside = (char: string): number => encoder.encode(text.slice(0, text.indexOf(char))).length + 1;
        const cuts = [0, inside('é'), inside('图'), bytes.length - 1, bytes.length];
        for (let i = 0; i + 1 < cuts.length; i += 1) {
          await probe.send(bytes.subarray(cuts[i], cuts[i + 1]));
          await context.sleep(40);
        }
        const reply = await probe.next(context.replyTimeoutMs);
        const mismatch = idMismatch(reply, 'split-é-图');
        return !mismatch && hasResult(reply) ? pass(`${cuts.length - 1} packets, 40 ms apart`) : fail(mismatch ?? describeReply(reply));
      } finally {
        probe.close();
      }
    },
  },
  {
    id: 'large-request',
    title: 'an 8 KB request is read whole (no 2 KB recv limit)',
    async run(context) {
      const reply = await exchange(context, frame('large-8k', 'tools/call', { name: MISSING_TOOL, arguments: { payload: 'x'.repeat(8192) } }));
      return properReplyTo(reply, 'large-8k');
    },
  },
  {
    id: 'string-id',
    title: 'a string id is echoed verbatim',
    async run(context) {
      const reply = await exchange(context, frame('12345', 'tools/list'));
      const mismatch = idMismatch(reply, '12345');
      return mismatch ? fail(mismatch) : pass('"12345" came back as a string');
    },
  },
  {
    id: 'numeric-id',
    title: 'a numeric id is echoed verbatim',
    async run(context) {
      const reply = await exchange(context, frame(4242, 'tools/list'));
      const mismatch = idMismatch(reply, 4242);
      return mismatch ? fail(mismatch) : pass('4242 came back as a number');
    },
  },
  {
    id: 'notification-silence',
    title: 'a notification gets no reply',
    async run(context) {
      const probe = await context.open();
      try {
        await probe.send('{"jsonrpc":"2.0","method":"tools/list"}\n');
        const unexpected = await probe.collectFor(context.silenceMs);
        if (unexpected.length > 0) return fail(`replied to a notification: ${describeReply(unexpected[0]!)}`);
        await probe.send(frame('after-notification', 'tools/list'));
        const reply = await probe.next(context.replyTimeoutMs);
        const mismatch = idMismatch(reply, 'after-notification');
        return mismatch ? fail(`after the notification: ${mismatch}`) : pass(`silent for ${context.silenceMs} ms, then served`);
      } finally {
        probe.close();
      }
    },
  },
  {
    id: 'is-error-mapping',
    title: 'a failing tool call reports isError or a JSON-RPC error',
    async run(context) {
      const reply = await exchange(context, frame('missing-tool', 'tools/call', { name: MISSING_TOOL, arguments: {} }));
      const mismatch = idMismatch(reply, 'missing-tool');
      if (mismatch) return fail(mismatch);
      if (errorCode(reply) !== undefined) return pass(`JSON-RPC error ${errorCode(reply)}`);
      if (!hasResult(reply)) return fail(describeReply(reply));
      const parsed = parseToolResult(reply.value.result);
      if (!parsed.ok) return fail(`result is not MCP-shaped: ${parsed.issue}`);
      return parsed.result.isError === true ? pass('result.isError = true') : fail(`calling a nonexistent tool succeeded: ${describeReply(reply)}`);
    },
  },
  {
    id: 'unknown-method',
    title: 'an unknown method gets -32601',
    async run(context) {
      const reply = await exchange(context, frame('unknown-method', 'cadsight/verify-unknown-method'));
      const mismatch = idMismatch(reply, 'unknown-method');
      if (mismatch) return fail(mismatch);
      return errorCode(reply) === JSON_RPC_ERROR.methodNotFound ? pass('-32601') : fail(`expected error -32601, got ${describeReply(reply)}`);
    },
  },
  {
    id: 'malformed-json',
    title: 'malformed JSON gets -32700 and the connection keeps serving',
    async run(context) {
      const probe = await context.open();
      try {
        await probe.send('{"jsonrpc":"2.0","id":"broken", this is not json\n');
        const reply = await probe.next(context.replyTimeoutMs);
        if (errorCode(reply) !== JSON_RPC_ERROR.parseError) return fail(`expected error -32700, got ${describeReply(reply)}`);
        await probe.send(frame('after-malformed', 'tools/list'));
        const next = await probe.next(context.replyTimeoutMs);
        const mismatch = idMismatch(next, 'after-malformed');
        return !mismatch && hasResult(next) ? pass('-32700, then served') : fail(`after -32700: ${mismatch ?? describeReply(next)}`);
      } finally {
        probe.close();
      }
    },
  },
  {
    id: 'utf8-roundtrip',
    title: 'Chinese (UTF-8) text round-trips',
    async run(context) {
      const id = '审图-验证-图框①';
      const reply = await exchange(context, frame(id, 'tools/call', { name: MISSING_TOOL, arguments: { 图名: '一层平面图' } }));
      const mismatch = idMismatch(reply, id);
      return mismatch ? fail(mismatch) : pass(`id ${id} came back intact`);
    },
  },
];

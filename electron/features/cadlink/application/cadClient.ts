import { AppError } from '../../../../shared/errors';
import type { Logger } from '../../../platform/log/types';
import { DEFAULT_BACKOFF, validateBackoff, type BackoffOptions } from '../domain/protocol/backoff';
import { abortedError, formatEndpoint, frameTooLargeError, refusedError, timeoutError, type CadEndpoint } from '../domain/protocol/cadErrors';
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, type FrameItem } from '../../../platform/framing/lineFramer';
import { makeRequest, parseJsonRpcLine } from '../domain/protocol/jsonRpc';
import type { ToolContent, ToolDescriptor } from '../domain/protocol/mcpTools';
import type { ToolPolicy } from '../domain/policy/toolPolicy';
import type { CadSocketFactory } from '../ports/cadSocket';
import type { Clock, RandomSource } from '../ports/clock';
import { createCadConnection, type CadConnectionState, type CadConnectionStateEvent } from './cadConnection';
import { createPendingCalls, type CallOutcome, type CorrelationStats } from './pendingCalls';
import { toToolCallResult, toToolList } from './replyMapping';

/** A tools/call outcome: the content, or a typed error. Expected failures are returned, never thrown. */
export type CadCallResult = { ok: true; content: ToolContent[] } | { ok: false; error: AppError };

export interface CadCallOptions {
  /** Overrides the client's requestTimeoutMs for this call. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CadClientOptions {
  host: string;
  port: number;
  socketFactory: CadSocketFactory;
  clock: Clock;
  random: RandomSource;
  /** Decides which tools may be called; a refused call never reaches the socket. */
  policy: ToolPolicy;
  /** Largest reply frame accepted; a bigger one closes the connection. Default 64 MiB. */
  maxFrameBytes?: number;
  /** Default per-call timeout. Default 30 s (AutoCAD may be busy regenerating). */
  requestTimeoutMs?: number;
  /** Default 5 s. */
  connectTimeoutMs?: number;
  reconnect?: BackoffOptions;
  log?: Logger;
}

/** Counters for diagnostics and benchmarks. */
export interface CadClientStats extends CorrelationStats {
  /** Requests written to the socket. */
  sent: number;
  /** Calls waiting for a reply. */
  pending: number;
  /** Reply lines that were not JSON-RPC (or not UTF-8) and could not be tied to a call. */
  malformedReplies: number;
  /** Calls refused by the tool policy (never sent). */
  refused: number;
}

/**
 * Client of a cad_mcp_frame-compatible server (the AutoCAD plugin or CadSight's DXF backend).
 * Calls connect lazily (one immediate attempt, no retry loop); connect() additionally keeps the
 * connection up with backoff. Calls are never resent after a disconnect or timeout: a write
 * tool may already have run in AutoCAD.
 */
export interface CadClient {
  readonly endpoint: CadEndpoint;
  readonly state: CadConnectionState;
  /** Connects and keeps reconnecting after drops until close(). Throws CAD_NOT_CONNECTED if the first attempt fails. */
  connect(): Promise<void>;
  close(): void;
  onStateChange(listener: (event: CadConnectionStateEvent) => void): () => void;
  /**
   * The backend's tools (cached until refreshTools() or a reconnect). Throws AppError
   * CAD_NOT_CONNECTED, CAD_DISCONNECTED, CAD_TIMEOUT or CAD_PROTOCOL_ERROR.
   */
  listTools(): Promise<ToolDescriptor[]>;
  /** Drops the cache and asks tools/list again (same errors as listTools). */
  refreshTools(): Promise<ToolDescriptor[]>;
  /**
   * Calls one tool. Error codes: CAD_TOOL_REFUSED (policy; nothing sent), CAD_TOOL_ERROR
   * (result.isError; text kept), CAD_PROTOCOL_ERROR (JSON-RPC error or malformed reply; rpc
   * code in data), CAD_TIMEOUT, CAD_ABORTED, CAD_DISCONNECTED, CAD_NOT_CONNECTED, CAD_FRAME_TOO_LARGE.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CadCallOptions): Promise<CadCallResult>;
  stats(): CadClientStats;
}

type RequestOutcome = { ok: true; outcome: Extract<CallOutcome, { kind: 'reply' }> } | { ok: false; error: AppError };

export function createCadClient(options: CadClientOptions): CadClient {
  const endpoint: CadEndpoint = { host: options.host, port: options.port };
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const pending = createPendingCalls();
  const counters = { sent: 0, malformedReplies: 0, refused: 0 };
  let nextId = 1;
  let toolCache: Promise<ToolDescriptor[]> | null = null;
  const log = options.log?.child({ cad: formatEndpoint(endpoint) });

  const connection = createCadConnection({
    endpoint,
    socketFactory: options.socketFactory,
    clock: options.clock,
    random: options.random,
    reconnect: validateBackoff(options.reconnect ?? DEFAULT_BACKOFF),
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    maxFrameBytes,
    onFrame: handleFrame,
    onLost(error) {
      // AutoCAD may come back with another plugin build: rediscover tools after a reconnect.
      toolCache = null;
      pending.failAll(error);
    },
    ...(log ? { log } : {}),
  });

  function handleFrame(item: Exclude<FrameItem, { kind: 'overflow' | 'overflow-end' }>): void {
    if (item.kind === 'invalid-utf8') {
      counters.malformedReplies += 1;
      log?.warn('cad reply is not UTF-8', { bytes: item.byteLength });
      return;
    }
    const classified = parseJsonRpcLine(item.text);
    if (classified.kind === 'response' || classified.kind === 'error') {
      if (!pending.deliver(classified.message) && classified.kind === 'error') {
        log?.warn('cad error reply matches no call', { id: classified.message.id, rpcCode: classified.message.error.code, rpcMessage: classified.message.error.message });
      }
      return;
    }
    if (classified.kind === 'invalid' && classified.id !== null) {
      // Readable id, broken envelope: the call it answers fails with a protocol error.
      counters.malformedReplies += 1;
      pending.fail(classified.id, new AppError('CAD_PROTOCOL_ERROR', `Malformed reply from ${formatEndpoint(endpoint)}: ${classified.reason}`, { data: { reason: classified.reason } }));
      return;
    }
    counters.malformedReplies += 1;
    log?.warn('cad sent a line that is not a reply', { kind: classified.kind });
  }

  async function request(method: string, params: unknown, callOptions: CadCallOptions = {}): Promise<RequestOutcome> {
    const timeoutMs = callOptions.timeoutMs ?? requestTimeoutMs;
    if (callOptions.signal?.aborted) return { ok: false, error: abortedError(method) };
    try {
      await connection.ensureConnected();
    } catch (error) {
      return { ok: false, error: error as AppError };
    }
    const id = nextId;
    nextId += 1;
    const frame = encodeFrame(makeRequest(id, method, params));
    if (frame.length - 1 > maxFrameBytes) return { ok: false, error: frameTooLargeError(endpoint, maxFrameBytes, 'request') };
    return new Promise<RequestOutcome>((resolve) => {
      const cancelTimer = options.clock.setTimeout(() => pending.fail(id, timeoutError(endpoint, method, timeoutMs)), timeoutMs);
      const onAbort = (): void => pending.fail(id, abortedError(method));
      callOptions.signal?.addEventListener('abort', onAbort, { once: true });
      pending.register(id, (outcome) => {
        cancelTimer();
        callOptions.signal?.removeEventListener('abort', onAbort);
        resolve(outcome.kind === 'reply' ? { ok: true, outcome } : { ok: false, error: outcome.error });
      });
      counters.sent += 1;
      connection.send(frame).catch((error: AppError) => pending.fail(id, error));
    });
  }

  async function fetchTools(): Promise<ToolDescriptor[]> {
    const outcome = await request('tools/list', undefined);
    if (!outcome.ok) throw outcome.error;
    const mapped = toToolList(outcome.outcome.message, endpoint);
    if (!mapped.ok) throw mapped.error;
    return mapped.tools;
  }

  const client: CadClient = {
    endpoint,
    get state() {
      return connection.state;
    },
    connect: () => connection.keepAlive(),
    close: () => connection.close(),
    onStateChange: (listener) => connection.onStateChange(listener),
    listTools() {
      if (!toolCache) {
        const fetching = fetchTools();
        toolCache = fetching;
        // A failed discovery is not cached: the next call asks again.
        fetching.catch(() => {
          if (toolCache === fetching) toolCache = null;
        });
      }
      return toolCache;
    },
    refreshTools() {
      toolCache = null;
      return client.listTools();
    },
    async callTool(name, args = {}, callOptions = {}) {
      const decision = options.policy.check(name);
      if (!decision.allowed) {
        counters.refused += 1;
        log?.info('cad tool refused by policy', { tool: name, mode: options.policy.mode });
        return { ok: false, error: refusedError(name, decision.reason, options.policy.mode) };
      }
      const outcome = await request('tools/call', { name, arguments: args }, callOptions);
      if (!outcome.ok) return outcome;
      return toToolCallResult(outcome.outcome.message, name);
    },
    stats: () => ({ ...pending.stats, ...counters, pending: pending.size }),
  };
  return client;
}

/**
 * JSON-RPC 2.0 messages as the cad_mcp_frame plugin speaks them, and their classification.
 * Ids are `string | number` and are compared by type AND value: `"1"` and `1` are different
 * requests (the plugin echoes ids verbatim, so a client must never normalise them).
 */

/** A request id. Never `null` on a request; `null` only appears on error replies to unparsable input. */
export type JsonRpcId = string | number;

/** Standard JSON-RPC 2.0 error codes used on this wire. */
export const JSON_RPC_ERROR = {
  /** The line is not valid JSON (or not valid UTF-8). */
  parseError: -32700,
  /** Valid JSON but not a JSON-RPC 2.0 message (also: a frame over the size cap). */
  invalidRequest: -32600,
  /** The method does not exist (the plugin has only tools/list and tools/call). */
  methodNotFound: -32601,
  /** The method exists but its params are wrong (e.g. tools/call without a string name). */
  invalidParams: -32602,
  /** The server failed while handling a valid request. */
  internalError: -32603,
} as const;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

/** A request without an id: the receiver must not reply. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** What one received line is. `invalid` carries the error code a server should answer with. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcSuccess }
  | { kind: 'error'; message: JsonRpcFailure }
  | {
      kind: 'invalid';
      code: typeof JSON_RPC_ERROR.parseError | typeof JSON_RPC_ERROR.invalidRequest;
      reason: string;
      /** The id when one could be read, so a server can address its error reply. */
      id: JsonRpcId | null;
    };

/** Parses and classifies one line. Never throws. */
export function parseJsonRpcLine(line: string): ClassifiedMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', code: JSON_RPC_ERROR.parseError, reason: 'The message is not valid JSON.', id: null };
  }
  return classifyJsonRpcValue(value);
}

/** Classifies an already-parsed JSON value. Batches (arrays) are not part of this protocol. */
export function classifyJsonRpcValue(value: unknown): ClassifiedMessage {
  if (!isRecord(value)) return invalid('A JSON-RPC message must be a JSON object.', null);
  const id = readId(value);
  if (value.jsonrpc !== '2.0') return invalid('The "jsonrpc" member must be exactly "2.0".', id);
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) return invalid('The "method" member must be a non-empty string.', id);
    if ('params' in value && !isStructured(value.params)) return invalid('The "params" member must be an object or an array.', id);
    const base = { jsonrpc: '2.0' as const, method: value.method, ...('params' in value ? { params: value.params } : {}) };
    if (!('id' in value)) return { kind: 'notification', message: base };
    if (id === null) return invalid('A request "id" must be a string or a number.', null);
    return { kind: 'request', message: { ...base, id } };
  }
  if ('result' in value && !('error' in value)) {
    if (id === null) return invalid('A response "id" must be a string or a number.', null);
    return { kind: 'response', message: { jsonrpc: '2.0', id, result: value.result } };
  }
  if ('error' in value && !('result' in value)) {
    const error = value.error;
    if (!isRecord(error) || typeof error.code !== 'number' || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalid('The "error" member must be an object with an integer "code" and a string "message".', id);
    }
    if ('id' in value && value.id !== null && id === null) return invalid('An error "id" must be a string, a number or null.', null);
    const errorObject: JsonRpcErrorObject = { code: error.code, message: error.message, ...('data' in error ? { data: error.data } : {}) };
    return { kind: 'error', message: { jsonrpc: '2.0', id, error: errorObject } };
  }
  return invalid('The message is neither a request (method) nor a response (exactly one of result/error).', id);
}

/** A key that keeps the id's type: `idKey("1") !== idKey(1)`. */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${id}`;
}

export function makeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function makeSuccess(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function makeFailure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

function invalid(reason: string, id: JsonRpcId | null): ClassifiedMessage {
  return { kind: 'invalid', code: JSON_RPC_ERROR.invalidRequest, reason, id };
}

function readId(value: Record<string, unknown>): JsonRpcId | null {
  const id = value.id;
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  return null;
}

function isStructured(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import type { ClassifiedMessage, JsonRpcNotification } from './jsonRpc';

/**
 * Optional shared-secret handshake for a CadSight line server started with `--token`: the
 * client's first line is this notification. A notification gets no reply, so an AutoCAD plugin
 * that knows nothing of tokens simply ignores it and a token-aware client works with both.
 */
export const CAD_AUTH_METHOD = 'cadsight/authenticate';

/** Longest token accepted (anything longer is not a token but an attempt to fill memory). */
export const MAX_CAD_TOKEN_LENGTH = 512;

export function makeAuthNotification(token: string): JsonRpcNotification {
  return { jsonrpc: '2.0', method: CAD_AUTH_METHOD, params: { token } };
}

/** The token an authentication line carries, or null when the line is anything else. */
export function readAuthToken(message: ClassifiedMessage): string | null {
  if (message.kind !== 'notification' || message.message.method !== CAD_AUTH_METHOD) return null;
  const params = message.message.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return null;
  const token = (params as Record<string, unknown>).token;
  return typeof token === 'string' && token.length > 0 && token.length <= MAX_CAD_TOKEN_LENGTH ? token : null;
}

/** Checks a `--token` value given by a user: printable, no spaces, 16..512 characters. */
export function tokenProblem(token: string): string | null {
  if (token.length < 16) return 'a token needs at least 16 characters';
  if (token.length > MAX_CAD_TOKEN_LENGTH) return `a token has at most ${MAX_CAD_TOKEN_LENGTH} characters`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'a token is printable ASCII without spaces';
  return null;
}

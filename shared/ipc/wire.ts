import { z } from 'zod';

/**
 * Browser-mode wire protocol over the WebSocket (same contract as Electron IPC):
 * client -> server `{t:'call', id, channel, input}`; server -> client
 * `{t:'result', id, result}` and `{t:'event', event, payload}`.
 */
export const clientMessageSchema = z
  .object({ t: z.literal('call'), id: z.number().int().nonnegative(), channel: z.string().max(100), input: z.unknown() })
  .strict();

export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** Largest message a browser client may send (inputs are small; images travel as bytes elsewhere). */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * WebSocket subprotocols of the IPC socket. The session token travels as the second one
 * (`cadsight.token.<hex>`), never in a cookie: cookies are not port-scoped, so any other server
 * on 127.0.0.1 the browser visits would receive it. The server answers with IPC_SUBPROTOCOL.
 */
export const IPC_SUBPROTOCOL = 'cadsight.ipc.v1';
export const IPC_TOKEN_SUBPROTOCOL_PREFIX = 'cadsight.token.';

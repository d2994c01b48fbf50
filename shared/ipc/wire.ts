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

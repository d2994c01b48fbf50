import { makeAuthNotification } from '../domain/protocol/authToken';
import { encodeFrame } from '../../../platform/framing/lineFramer';
import type { CadSocketFactory } from '../ports/cadSocket';

/**
 * A socket factory whose connections start with the `--token` handshake line, so the client,
 * the bridge and verify-cad reach a token-protected server without knowing about tokens.
 * Without a token the factory is returned unchanged.
 */
export function withCadToken(factory: CadSocketFactory, token: string | undefined): CadSocketFactory {
  if (token === undefined) return factory;
  const hello = encodeFrame(makeAuthNotification(token));
  return async (endpoint, options) => {
    const socket = await factory(endpoint, options);
    socket.write(hello);
    return socket;
  };
}

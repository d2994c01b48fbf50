import { startJsonRpcLineServer, type JsonRpcLineServer } from '../../features/cadlink/index';
import { createRecordingToolProvider, type RecordingToolProvider } from './testToolProvider';

/**
 * A plugin-like JSON-RPC line server on 127.0.0.1 backed by a recording tool provider.
 * `onCleanup` receives the close function so the caller's afterEach stops it.
 */
export async function startRecordingPeer(
  onCleanup: (close: () => Promise<void>) => void,
  port = 0,
): Promise<{ server: JsonRpcLineServer; provider: RecordingToolProvider }> {
  const provider = createRecordingToolProvider();
  const server = await startJsonRpcLineServer({ port, handler: provider });
  onCleanup(() => server.close());
  return { server, provider };
}

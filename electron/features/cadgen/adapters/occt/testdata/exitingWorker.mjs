// Test double for supervision tests: announces a ready kernel, then dies on the first request,
// exactly as a worker killed by a WASM abort would look to the supervisor.
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ type: 'ready', kernel_start_ms: 0 });
parentPort.on('message', () => process.exit(3));

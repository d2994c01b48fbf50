// `npm start`: the desktop app when an Electron binary is installed, otherwise browser mode
// (the Electron package can be installed without its binary: ELECTRON_SKIP_BINARY_DOWNLOAD=1,
// or a failed download, see scripts/install/nativeDeps.mjs). Never crashes on a missing binary.
import { spawn } from 'node:child_process';
import { electronBinary } from './install/nativeDeps.mjs';

const binary = electronBinary();
const child = binary
  ? spawn(binary, ['.'], { stdio: 'inherit' })
  : (process.stderr.write('Electron binary not found (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1 or its download failed; `npm run install:desktop` retries): starting browser mode.\n'),
    spawn(process.execPath, ['dist/node/serve.js', ...process.argv.slice(2)], { stdio: 'inherit' }));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));

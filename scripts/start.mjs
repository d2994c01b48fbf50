// `npm start`: the desktop app when an Electron binary is installed, otherwise browser mode
// (the Electron package can be installed without its binary: ELECTRON_SKIP_BINARY_DOWNLOAD=1,
// or a failed download). Never crashes on a missing binary.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const binary = require('electron'); // the package exports the binary path as a string
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const child = binary
  ? spawn(binary, ['.'], { stdio: 'inherit' })
  : (process.stderr.write('Electron binary not found (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1 or its download failed): starting browser mode.\n'),
    spawn(process.execPath, ['dist/node/serve.js', ...process.argv.slice(2)], { stdio: 'inherit' }));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));

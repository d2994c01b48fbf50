// Root postinstall: the native pieces whose own install scripts package.json's allowScripts denies
// (see scripts/install/nativeDeps.mjs). `--desktop`: only Electron's binary (`npm run install:desktop`).
import { ensureSqliteBinding, installElectronBinary } from './install/nativeDeps.mjs';

const desktopOnly = process.argv.includes('--desktop');
if (!desktopOnly && !ensureSqliteBinding()) {
  process.stderr.write(
    [
      'CadSight needs the better-sqlite3 native binding and could neither download it nor build it.',
      '  - Behind a firewall: set npm_config_better_sqlite3_binary_host_mirror (see README, "Installing behind a firewall").',
      '  - Or install a C++ toolchain and Python (build-essential python3 / Xcode command line tools / Visual Studio Build Tools).',
      'Then run `npm install` again.',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const electron = installElectronBinary();
if (desktopOnly && electron === 'failed') process.exit(1);

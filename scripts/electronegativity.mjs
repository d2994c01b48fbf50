// Electronegativity over the desktop main process and preload, offline (Electron version given
// explicitly so it does not need the network). Fails on any finding of MEDIUM severity or above.
// A reviewed exception is written as an inline `/* eng-disable CHECK_NAME */` comment at the site.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const electronVersion = require('electron/package.json').version;
// One scan over what ships in the window: main, preload and the renderer's HTML (its CSP).
const work = mkdtempSync(path.join(tmpdir(), 'eng-'));
const scanRoot = path.join(work, 'app');
for (const dir of ['electron/main', 'electron/preload']) cpSync(dir, path.join(scanRoot, dir), { recursive: true });
cpSync('renderer/index.html', path.join(scanRoot, 'renderer/index.html'));
const out = path.join(work, 'findings.csv');
const run = spawnSync(process.execPath, [require.resolve('@doyensec/electronegativity/dist/index.js'), '-i', scanRoot, '-r', '-e', electronVersion, '-o', out], {
  encoding: 'utf8',
});
let rows;
try {
  rows = readFileSync(out, 'utf8').trim().split('\n').slice(1).filter(Boolean);
} catch {
  process.stderr.write(`Electronegativity did not run:\n${run.stderr}\n`);
  process.exit(2);
}
const severity = (row) => row.split(',')[1]?.replaceAll('"', '');
const findings = rows.filter((row) => ['MEDIUM', 'HIGH', 'CRITICAL'].includes(severity(row) ?? ''));
const minor = rows.length - findings.length;
if (findings.length > 0) {
  process.stderr.write(`Electronegativity: ${findings.length} finding(s) at MEDIUM or above:\n${findings.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Electronegativity: 0 findings at MEDIUM or above, ${minor} below (Electron ${electronVersion}).\n`);

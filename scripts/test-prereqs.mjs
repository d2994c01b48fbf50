// `npm test` step 0 (and so `.ci/run`): finds Chromium, Python with ezdxf, ffmpeg and a CJK font;
// installs what it can (root with apt-get: Debian packages; otherwise Playwright's Chromium
// download and a project-local ezdxf virtualenv); then either records the resolved paths in
// .cache/test-prereqs.json or stops with one message per missing piece and its install commands.
// Under CI=true every piece is required; outside CI a missing ezdxf only skips the validator tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureSqliteBinding } from './install/nativeDeps.mjs';
import { PREREQS, RESOLVED_FILE, planSetup } from './prereqs/prereqs.mjs';

const env = process.env;
const ci = env.CI === 'true' || env.CI === '1';
const say = (line) => process.stdout.write(`test-prereqs: ${line}\n`);
const find = () => Object.fromEntries(PREREQS.map((p) => [p.id, p.find(env)]));
const missingOf = (found) => PREREQS.filter((p) => !found[p.id]);

// The root postinstall builds better-sqlite3's binding (its own install script is denied, see
// scripts/install/nativeDeps.mjs); an install with --ignore-scripts leaves it missing.
if (!ensureSqliteBinding(say)) {
  say('MISSING: the better-sqlite3 native binding (a C++ toolchain may be needed: build-essential / Xcode CLT / VS Build Tools)');
  process.exit(1);
}

let found = find();
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
const plan = planSetup(missingOf(found), { ci, root, hasApt });

if (plan.apt.length > 0) {
  say(`installing Debian packages: ${plan.apt.join(' ')}`);
  const run = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (!run(['update', '-qq']) || !run(['install', '-y', '-qq', '--no-install-recommends', ...plan.apt])) say('apt-get failed (see above)');
  found = find();
}
for (const piece of plan.user.filter((p) => !found[p.id])) {
  say(`trying ${piece.userInstall.label}`);
  const [cmd, args] = piece.userInstall.command;
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 600_000 });
  const reason = (result.stderr ?? '').trim().split('\n').find((line) => line.trim()) ?? (result.error ? String(result.error) : '');
  if (result.status !== 0) say(`  that did not work${reason ? `: ${reason.slice(0, 200)}` : ''}`);
  found = find();
}

const { fatal, skippable } = plan.after(missingOf(found));
for (const piece of [...fatal, ...skippable]) {
  say(`${fatal.includes(piece) ? 'MISSING' : 'missing (its tests will skip)'}: ${piece.what}`);
  for (const line of piece.manual) say(`    ${line}`);
}
mkdirSync(path.dirname(RESOLVED_FILE), { recursive: true });
writeFileSync(RESOLVED_FILE, `${JSON.stringify({ ci, ...found }, null, 2)}\n`);
if (fatal.length > 0) {
  say(`${fatal.length} prerequisite(s) missing${ci ? ' (CI=true: nothing may be skipped)' : ''}; install them and run npm test again.`);
  process.exit(1);
}
say(`ready: ${PREREQS.map((p) => `${p.id} ${found[p.id] ?? '(skipped)'}`).join(', ')}`);

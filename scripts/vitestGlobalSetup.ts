import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { SKIP_LOG } from '../electron/testSupport/prereqs';

/**
 * Tests that spawn our binaries (MCP servers, CLI, workers) run the bundled output,
 * so the Node bundles are rebuilt once before any test file runs. The teardown prints how many
 * tests skipped for a missing optional validator and why (skips never pass silently).
 */
export default function setup(): () => void {
  execFileSync(process.execPath, ['scripts/build-node.mjs', '--lenient'], { stdio: 'inherit' });
  rmSync(SKIP_LOG, { force: true });
  return () => {
    if (!existsSync(SKIP_LOG)) return;
    const skips = readFileSync(SKIP_LOG, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { test: string; reason: string });
    const byReason = new Map<string, string[]>();
    for (const skip of skips) byReason.set(skip.reason, [...(byReason.get(skip.reason) ?? []), skip.test]);
    for (const [reason, tests] of byReason) process.stdout.write(`\nskipped ${tests.length} test group(s) (${[...new Set(tests)].join(', ')}): ${reason}\n`);
  };
}

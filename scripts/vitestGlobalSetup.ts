import { execFileSync } from 'node:child_process';

/**
 * Tests that spawn our binaries (MCP servers, CLI, workers) run the bundled output,
 * so the Node bundles are rebuilt once before any test file runs.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-node.mjs', '--lenient'], { stdio: 'inherit' });
}

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as replicad from 'replicad';
import type { OpenCascadeInstance } from 'replicad-opencascadejs';

export type Replicad = typeof replicad;

/** A loaded OpenCascade kernel (one per worker thread, loaded once and kept warm). */
export interface Kernel {
  oc: OpenCascadeInstance;
  r: Replicad;
  engineVersion: string;
  wasmHeapBytes(): number;
}

const require = createRequire(import.meta.url);

/** Version of an installed package, found from its resolved entry (replicad does not export ./package.json). */
function packageVersion(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

/**
 * Loads the WASM kernel. The .wasm file is located through the package's own export so it works
 * from node_modules in tests, the CLI and the packaged app alike. Kernel chatter (STEP writer
 * statistics) is dropped: stdout belongs to the CLI's JSON and the MCP servers' JSON-RPC.
 */
export async function loadKernel(): Promise<Kernel> {
  const wasmPath = require.resolve('replicad-opencascadejs/wasm');
  const factory = (await import('replicad-opencascadejs')).default as unknown as (options: Record<string, unknown>) => Promise<OpenCascadeInstance>;
  const oc = await factory({ locateFile: () => wasmPath, print: () => undefined, printErr: () => undefined });
  replicad.setOC(oc);
  const memory = (oc as unknown as { wasmMemory: WebAssembly.Memory }).wasmMemory;
  return {
    oc,
    r: replicad,
    engineVersion: `replicad@${packageVersion('replicad')}+opencascadejs@${packageVersion('replicad-opencascadejs')}`,
    wasmHeapBytes: () => memory.buffer.byteLength,
  };
}

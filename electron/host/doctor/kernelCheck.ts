import type { CadRuntime } from '../../features/cadgen/index';
import type { DoctorCheck } from './doctorCheck';

/**
 * The OpenCascade kernel: starts the worker (or reuses the app's warm one) and reports how long
 * the kernel took to come up. A runtime the check created itself is disposed again.
 */
export function kernelCheck(runtime: { get(): CadRuntime; owned: boolean }): DoctorCheck {
  return {
    id: 'kernel',
    group: 'kernel',
    label: 'OpenCascade kernel',
    async run() {
      const cad = runtime.get();
      try {
        const startMs = await cad.warmUp();
        const ms = Math.round(startMs);
        return { status: 'pass', detail: `kernel started in ${ms} ms (replicad/OpenCascade WASM in a worker thread)`, finding: { code: 'kernel-started', params: { ms } } };
      } finally {
        if (runtime.owned) await cad.dispose();
      }
    },
  };
}

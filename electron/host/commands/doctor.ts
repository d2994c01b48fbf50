import { parseArgs } from 'node:util';
import { createOcctRuntime, type CadRuntime } from '../../features/cadgen/index';
import { parseEndpoint } from '../../features/cadlink/index';
import { createPlatformRuntime } from '../composition/platformRuntime';
import { formatDoctorTable, runDoctor } from '../doctor/doctorCheck';
import { systemChecks } from '../doctor/systemChecks';

const USAGE = `Usage: cadsight doctor [--json] [--no-model-calls] [--cad host:port]

Tells what works on this machine: Node, the Electron binary (or browser mode), the OpenCascade
kernel start time, ffmpeg (video), the CJK font for drawing screenshots, the data folder
(writable, database pragmas, size), each configured model provider (Settings and environment:
OK only when one short authenticated call to its model answers — a refused key, an address
answering 404 or no answer fail with the reason; then which capabilities pass — text, image
input, forced tool call, tool loop: a few more short requests, skipped with --no-model-calls), and the AutoCAD
plugin address from Settings or --cad (reachable, verify-cad summary).
Exit code 0 when everything you configured works (warnings are optional pieces), 1 otherwise.
`;

/** `cadsight doctor` (see USAGE). */
export const doctorCommand = {
  name: 'doctor',
  summary: 'Check what works here: kernel, fonts, ffmpeg, data folder, providers, AutoCAD address',
  async run(args: string[]): Promise<number> {
    let values: { json?: boolean; 'no-model-calls'?: boolean; cad?: string; help?: boolean };
    try {
      ({ values } = parseArgs({ args, options: { json: { type: 'boolean' }, 'no-model-calls': { type: 'boolean' }, cad: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
    } catch (error) {
      process.stderr.write(`cadsight doctor: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
      return 2;
    }
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    const cad = values.cad === undefined ? undefined : parseEndpoint(values.cad);
    const platform = createPlatformRuntime({ env: process.env, systemLocale: Intl.DateTimeFormat().resolvedOptions().locale, logName: 'cli.log' });
    let runtime: CadRuntime | undefined;
    try {
      const checks = systemChecks({
        platform,
        env: process.env,
        liveModels: !values['no-model-calls'],
        envProviders: true,
        kernel: { get: () => (runtime ??= createOcctRuntime({ workerScript: new URL('./occtWorker.js', import.meta.url) })), owned: true },
        ...(cad ? { cad } : {}),
      });
      const report = await runDoctor(checks);
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorTable(report));
      return report.ok ? 0 : 1;
    } finally {
      platform.close();
    }
  },
};

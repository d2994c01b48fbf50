import { once } from 'node:events';
import { AppError } from '../../../shared/errors';
import { openDxfBackend, startJsonRpcLineServer } from '../../features/cadlink';
import { dxfLimitsFromEnv } from '../../features/drawing';

function parseArgs(args: string[]): { file: string; port: number } {
  let file: string | undefined;
  let port = 8080;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--port') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 0 || value > 65535) throw new AppError('CAD_BAD_ARGUMENTS', `--port needs an integer 0..65535, got "${args[i] ?? ''}"`);
      port = value;
    } else if (!file && !arg.startsWith('--')) file = arg;
    else throw new AppError('CAD_BAD_ARGUMENTS', `unexpected argument "${arg}"; usage: cadsight dxf-server <file.dxf> [--port N]`);
  }
  if (!file) throw new AppError('CAD_BAD_ARGUMENTS', 'usage: cadsight dxf-server <file.dxf> [--port N]');
  return { file, port };
}

/**
 * `cadsight dxf-server <file.dxf> [--port N]`: serves a DXF drawing over the cad_mcp_frame
 * protocol until SIGINT/SIGTERM. Shaped as registry.ts's CliCommand; the type is not imported
 * because registry.ts imports this module (a cycle).
 */
export const dxfServerCommand = {
  name: 'dxf-server',
  summary: 'serve a DXF drawing over the cad_mcp_frame protocol (JSON-RPC lines on TCP)',
  async run(args: string[]): Promise<number> {
    const { file, port } = parseArgs(args);
    const provider = await openDxfBackend(file, { limits: dxfLimitsFromEnv(process.env) });
    const server = await startJsonRpcLineServer({ host: '127.0.0.1', port, handler: provider });
    process.stdout.write(`listening ${server.host}:${server.port}\n`);
    const signal = await Promise.race([once(process, 'SIGINT').then(() => 'SIGINT'), once(process, 'SIGTERM').then(() => 'SIGTERM')]);
    await server.close();
    process.stderr.write(`dxf-server: stopped (${signal})\n`);
    return 0;
  },
};

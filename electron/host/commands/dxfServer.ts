import { once } from 'node:events';
import { AppError } from '../../../shared/errors';
import { openDxfBackend, startJsonRpcLineServer, tokenProblem } from '../../features/cadlink';

const USAGE = 'usage: cadsight dxf-server <file.dxf> [--port N] [--token T] [--output-dir DIR] [--allow-overwrite] [--max-connections N]';

interface DxfServerArgs {
  file: string;
  port: number;
  token?: string;
  outputDir?: string;
  allowOverwrite: boolean;
  maxConnections?: number;
}

function integer(flag: string, text: string | undefined, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new AppError('CAD_BAD_ARGUMENTS', `${flag} needs an integer ${min}..${max}, got "${text ?? ''}"`);
  return value;
}

function value(flag: string, text: string | undefined): string {
  if (text === undefined || text.length === 0) throw new AppError('CAD_BAD_ARGUMENTS', `${flag} needs a value; ${USAGE}`);
  return text;
}

function parseArgs(args: string[], env: NodeJS.ProcessEnv): DxfServerArgs {
  let file: string | undefined;
  const parsed: Omit<DxfServerArgs, 'file'> = { port: 8080, allowOverwrite: false };
  // The environment keeps the token out of `ps` listings; --token wins when both are given.
  const envToken = env.CADSIGHT_CAD_TOKEN?.trim();
  if (envToken) parsed.token = envToken;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--port') parsed.port = integer('--port', args[++i], 0, 65535);
    else if (arg === '--token') parsed.token = value('--token', args[++i]);
    else if (arg === '--output-dir') parsed.outputDir = value('--output-dir', args[++i]);
    else if (arg === '--allow-overwrite') parsed.allowOverwrite = true;
    else if (arg === '--max-connections') parsed.maxConnections = integer('--max-connections', args[++i], 1, 1024);
    else if (!file && !arg.startsWith('--')) file = arg;
    else throw new AppError('CAD_BAD_ARGUMENTS', `unexpected argument "${arg}"; ${USAGE}`);
  }
  if (!file) throw new AppError('CAD_BAD_ARGUMENTS', USAGE);
  const problem = parsed.token === undefined ? null : tokenProblem(parsed.token);
  if (problem) throw new AppError('CAD_BAD_ARGUMENTS', `--token: ${problem}`);
  return { file, ...parsed };
}

/**
 * `cadsight dxf-server <file.dxf> [--port N] [--token T] [--output-dir DIR] [--allow-overwrite]`:
 * serves a DXF drawing over the cad_mcp_frame protocol on 127.0.0.1 until SIGINT/SIGTERM.
 * save_drawing writes only new review copies next to the file (or into --output-dir); with
 * --token (or CADSIGHT_CAD_TOKEN) every connection must authenticate first. Shaped as
 * registry.ts's CliCommand; the type is not imported because registry.ts imports this module.
 */
export const dxfServerCommand = {
  name: 'dxf-server',
  summary: 'serve a DXF drawing over the cad_mcp_frame protocol (JSON-RPC lines on TCP)',
  async run(args: string[]): Promise<number> {
    const { file, port, token, outputDir, allowOverwrite, maxConnections } = parseArgs(args, process.env);
    const provider = await openDxfBackend(file, { save: { allowOverwrite, ...(outputDir === undefined ? {} : { outputDir }) } });
    const server = await startJsonRpcLineServer({ host: '127.0.0.1', port, handler: provider, ...(token === undefined ? {} : { token }), ...(maxConnections === undefined ? {} : { maxConnections }) });
    process.stdout.write(`listening ${server.host}:${server.port}${token === undefined ? '' : ' (token required)'}\n`);
    const signal = await Promise.race([once(process, 'SIGINT').then(() => 'SIGINT'), once(process, 'SIGTERM').then(() => 'SIGTERM')]);
    await server.close();
    process.stderr.write(`dxf-server: stopped (${signal})\n`);
    return 0;
  },
};

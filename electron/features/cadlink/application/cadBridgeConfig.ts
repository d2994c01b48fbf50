import { AppError } from '../../../../shared/errors';
import { tokenProblem } from '../domain/protocol/authToken';
import { parseEndpoint, type CadEndpoint } from '../domain/protocol/cadErrors';

/**
 * Configuration of `cadsight-cad-bridge`, from its arguments and environment (MCP clients
 * configure servers with args + env only):
 *   --cad host:port        or CAD_HOST / CAD_PORT (default 127.0.0.1:8080)
 *   --token T              or CADSIGHT_CAD_TOKEN: shared secret of a `dxf-server --token`
 *   --read-only            or CAD_READ_ONLY=1: only whitelisted read tools are listed and callable
 *   CAD_READ_ONLY_TOOLS    comma-separated whitelist replacing the default read tools
 *   CAD_TIMEOUT_MS         per-call timeout (default 60000: AutoCAD screenshots can be slow)
 *   CAD_BRIDGE_MAX_RESULT_BYTES  largest result passed to the MCP client (default 10 MiB - 64 KiB)
 *   LOG_LEVEL              debug | info | warn | error (stderr, JSON lines)
 */
export interface CadBridgeConfig {
  endpoint: CadEndpoint;
  /** Sent as the first line of every connection (see withCadToken). */
  token?: string;
  readOnly: boolean;
  /** Undefined = the default whitelist. */
  readOnlyTools?: string[];
  requestTimeoutMs: number;
  /** Results above this are refused with CAD_RESULT_TOO_LARGE instead of breaking the client's stdio reader. */
  maxResultBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  help: boolean;
}

// The official SDK's stdio client buffers at most 10 MiB (STDIO_DEFAULT_MAX_BUFFER_SIZE); a bigger
// reply makes it drop the buffer mid-message. The margin covers the JSON-RPC envelope.
export const DEFAULT_MAX_RESULT_BYTES = 10 * 1024 * 1024 - 64 * 1024;

export const CAD_BRIDGE_USAGE = `Usage: cadsight-cad-bridge [--cad host:port] [--read-only] [--token T]

An MCP stdio server that lets any MCP client (Claude Desktop, MCP Inspector, ...) use the
AutoCAD cad_mcp_frame plugin (JSON-RPC over TCP) or \`cadsight dxf-server\`.
Environment: CAD_HOST, CAD_PORT (default 127.0.0.1:8080), CAD_READ_ONLY=1, CADSIGHT_CAD_TOKEN,
CAD_READ_ONLY_TOOLS=a,b,c, CAD_TIMEOUT_MS (default 60000), CAD_BRIDGE_MAX_RESULT_BYTES
(default ${DEFAULT_MAX_RESULT_BYTES}), LOG_LEVEL (default info).
`;

const bad = (what: string, message: string, value: unknown): AppError => new AppError('CAD_CONFIG_INVALID', `${what} ${message}.`, { data: { setting: what, value: String(value) } });

/** Throws AppError CAD_CONFIG_INVALID / CAD_BAD_ENDPOINT naming the offending setting. */
export function parseCadBridgeConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CadBridgeConfig {
  let cad: string | undefined;
  let token = env.CADSIGHT_CAD_TOKEN?.trim() || undefined;
  let readOnly = isTruthy(env.CAD_READ_ONLY);
  let help = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--read-only') readOnly = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--cad') {
      cad = argv[i + 1];
      if (cad === undefined) throw bad('--cad', 'needs a value host:port', '');
      i += 1;
    } else if (arg.startsWith('--cad=')) cad = arg.slice('--cad='.length);
    else if (arg === '--token') {
      token = argv[i + 1];
      if (token === undefined) throw bad('--token', 'needs a value', '');
      i += 1;
    }
    else throw bad('argument', `"${arg}" is not known (see --help)`, arg);
  }
  const problem = token === undefined ? null : tokenProblem(token);
  // The value is never echoed: it is a secret.
  if (problem) throw bad('--token', problem, '(hidden)');
  const endpoint = parseEndpoint(cad ?? `${env.CAD_HOST?.trim() || '127.0.0.1'}:${env.CAD_PORT?.trim() || '8080'}`);
  const readOnlyTools = env.CAD_READ_ONLY_TOOLS?.trim()
    ? env.CAD_READ_ONLY_TOOLS.split(',')
        .map((name) => name.trim())
        .filter((name) => name.length > 0)
    : undefined;
  const timeoutText = env.CAD_TIMEOUT_MS?.trim() || '60000';
  const requestTimeoutMs = Number(timeoutText);
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1) throw bad('CAD_TIMEOUT_MS', 'must be a positive integer', timeoutText);
  const maxResultText = env.CAD_BRIDGE_MAX_RESULT_BYTES?.trim() || String(DEFAULT_MAX_RESULT_BYTES);
  const maxResultBytes = Number(maxResultText);
  if (!Number.isInteger(maxResultBytes) || maxResultBytes < 1) throw bad('CAD_BRIDGE_MAX_RESULT_BYTES', 'must be a positive integer', maxResultText);
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as CadBridgeConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw bad('LOG_LEVEL', 'must be debug, info, warn or error', env.LOG_LEVEL);
  return { endpoint, ...(token === undefined ? {} : { token }), readOnly, ...(readOnlyTools ? { readOnlyTools } : {}), requestTimeoutMs, maxResultBytes, logLevel, help };
}

function isTruthy(value: string | undefined): boolean {
  return ['1', 'true', 'yes', 'on'].includes(value?.trim().toLowerCase() ?? '');
}

import { parseArgs } from 'node:util';
import { AppError } from '../../../shared/errors';
import { connectTcpSocket, createSystemClock, formatConformanceTable, parseEndpoint, tokenProblem, verifyConformance, withCadToken } from '../../features/cadlink/index';

const USAGE = `Usage: cadsight verify-cad <host:port> [--json] [--timeout-ms <n>] [--token <t>]

Checks that a cad_mcp_frame-compatible server (the AutoCAD plugin, or \`cadsight dxf-server\`)
speaks the protocol CadSight relies on: tools/list, newline framing (two requests in one packet,
one request over several packets), an 8 KB request read whole, string and numeric ids echoed,
no reply to notifications, isError mapping, -32601 for unknown methods, -32700 for malformed
JSON with the connection still serving, and Chinese text intact. It calls no drawing tool.
--token (or CADSIGHT_CAD_TOKEN) authenticates to a \`dxf-server --token\` first.
Exit code 0 when every check passes, 1 when any fails, 2 when the server cannot be reached.
`;

/**
 * \`cadsight verify-cad\`: the CAD conformance table (see USAGE). Shaped as registry.ts's
 * CliCommand; the type is not imported because registry.ts imports this module (a cycle).
 */
export const verifyCadCommand = {
  name: 'verify-cad',
  summary: 'Check an AutoCAD cad_mcp_frame plugin (or dxf-server) for protocol conformance',
  async run(args: string[]): Promise<number> {
    let parsed: { values: { json?: boolean; 'timeout-ms'?: string; token?: string; help?: boolean }; positionals: string[] };
    try {
      parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, 'timeout-ms': { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true });
    } catch (error) {
      process.stderr.write(`cadsight verify-cad: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
      return 2;
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (positionals.length !== 1) {
      process.stderr.write(`cadsight verify-cad: expected exactly one <host:port>\n\n${USAGE}`);
      return 2;
    }
    const replyTimeoutMs = values['timeout-ms'] === undefined ? 5000 : Number(values['timeout-ms']);
    if (!Number.isInteger(replyTimeoutMs) || replyTimeoutMs < 1) throw new AppError('CAD_CONFIG_INVALID', `--timeout-ms must be a positive integer, got "${values['timeout-ms']}".`);
    const endpoint = parseEndpoint(positionals[0]!);
    const token = values.token ?? (process.env.CADSIGHT_CAD_TOKEN?.trim() || undefined);
    const problem = token === undefined ? null : tokenProblem(token);
    if (problem) throw new AppError('CAD_CONFIG_INVALID', `--token: ${problem}.`);
    // The system clock's timers are unref'd; once a server closes the probe socket nothing else
    // holds the event loop, and Node would exit 0 mid-check with no output — a silent "pass".
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      const report = await verifyConformance({ endpoint, socketFactory: withCadToken(connectTcpSocket, token), clock: createSystemClock(), replyTimeoutMs });
      process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatConformanceTable(report));
      return report.passed ? 0 : 1;
    } catch (error) {
      if (!(error instanceof AppError) || !values.json) throw error;
      process.stdout.write(`${JSON.stringify({ endpoint: positionals[0], passed: false, error: error.toData() }, null, 2)}\n`);
      return 2;
    } finally {
      clearInterval(keepAlive);
    }
  },
};

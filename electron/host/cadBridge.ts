import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json';
import { AppError, toAppErrorData } from '../../shared/errors';
import { createLogger } from '../platform/log/logger';
import { createRedactor } from '../platform/log/redact';
import { LineStdioServerTransport } from './mcpStdio/lineStdioTransport';
import {
  CAD_BRIDGE_USAGE,
  connectTcpSocket,
  createCadBridgeHandlers,
  createCadClient,
  createSystemClock,
  createToolPolicy,
  describeFailure,
  formatEndpoint,
  parseCadBridgeConfig,
  type CadBridgeConfig,
  type ToolPolicy,
  withCadToken,
} from '../features/cadlink/index';

// `cadsight-cad-bridge`: MCP over stdio in front of the cad_mcp_frame TCP plugin. The plugin has
// no initialize/ping, so the SDK server answers those itself and only tools/list and
// tools/call travel to AutoCAD. stdout carries JSON-RPC only; logs go to stderr.

function main(): void {
  let config: CadBridgeConfig;
  try {
    config = parseCadBridgeConfig(process.argv.slice(2), process.env);
  } catch (error) {
    const data = toAppErrorData(error);
    process.stderr.write(`cadsight-cad-bridge: [${data.code}] ${data.message}\n\n${CAD_BRIDGE_USAGE}`);
    process.exit(1);
  }
  if (config.help) {
    process.stdout.write(CAD_BRIDGE_USAGE);
    return;
  }
  const endpoint = formatEndpoint(config.endpoint);
  const log = createLogger({ sink: (line) => process.stderr.write(`${line}\n`), level: config.logLevel, redactor: createRedactor(), base: { app: 'cadsight-cad-bridge', pid: process.pid } });
  let policy: ToolPolicy;
  try {
    policy = createToolPolicy({ mode: config.readOnly ? 'read-only' : 'read-write', ...(config.readOnlyTools ? { readOnlyWhitelist: config.readOnlyTools } : {}) });
  } catch (error) {
    const data = toAppErrorData(error);
    process.stderr.write(`cadsight-cad-bridge: [${data.code}] ${data.message}\n`);
    process.exit(1);
  }
  const client = createCadClient({
    host: config.endpoint.host,
    port: config.endpoint.port,
    socketFactory: withCadToken(connectTcpSocket, config.token),
    clock: createSystemClock(),
    random: Math.random,
    policy,
    requestTimeoutMs: config.requestTimeoutMs,
    // AutoCAD restarts take tens of seconds: retry often enough to notice, rarely enough to be quiet.
    reconnect: { baseMs: 500, maxMs: 5000, jitter: 0.2 },
    log,
  });
  const handlers = createCadBridgeHandlers({ client, policy, maxResultBytes: config.maxResultBytes });

  const server = new Server(
    { name: 'cadsight-cad-bridge', version: packageJson.version },
    { capabilities: { tools: { listChanged: true } }, instructions: `Proxies the CAD plugin at ${endpoint}${config.readOnly ? ' (read-only: write tools are hidden and refused)' : ''}.` },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return { tools: await handlers.listTools() };
    } catch (error) {
      const data = error instanceof AppError ? error : new AppError('CAD_PROTOCOL_ERROR', 'tools/list failed unexpectedly.');
      log.warn('tools/list failed', { code: data.code });
      throw new McpError(ErrorCode.InternalError, describeFailure(data), data.toData());
    }
  });
  // Spread: the SDK's result type has an index signature that our ToolResult interface lacks.
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => ({ ...(await handlers.callTool(request.params.name, request.params.arguments ?? {}, extra.signal)) }));

  // After AutoCAD restarts, the plugin's tool set may differ: tell the MCP client to re-list.
  let connectedBefore = false;
  client.onStateChange((event) => {
    log.info('cad connection', { state: event.state, endpoint: event.endpoint, ...(event.retryInMs === undefined ? {} : { retryInMs: event.retryInMs }), ...(event.reason ? { reason: event.reason } : {}) });
    if (event.state !== 'connected') return;
    if (connectedBefore) server.sendToolListChanged().catch(() => undefined);
    connectedBefore = true;
  });
  client.connect().catch((error: unknown) => log.warn('CAD plugin not reachable yet; retrying in the background', { code: toAppErrorData(error).code, endpoint }));

  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    client.close();
    void server.close().finally(() => process.exit(0));
  };
  // An MCP client ends a stdio server by closing its stdin.
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  server.connect(new LineStdioServerTransport({ log })).then(
    () => log.info('cadsight-cad-bridge ready', { endpoint, readOnly: config.readOnly }),
    (error: unknown) => {
      log.error('stdio transport failed', { error: String(error) });
      process.exit(1);
    },
  );
}

main();

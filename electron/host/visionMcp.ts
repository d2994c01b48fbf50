import { homedir } from 'node:os';
import packageJson from '../../package.json';
import { toAppErrorData } from '../../shared/errors';
import { resolveDataDir } from '../platform/dataDir/resolveDataDir';
import { createLogger } from '../platform/log/logger';
import { createRedactor } from '../platform/log/redact';
import { LineStdioServerTransport } from './mcpStdio/lineStdioTransport';
import { visionConfigFromEnv, type VisionMcpConfig } from './visionMcp/config';
import { composeOnFirstUse, composeVisionRuntime, type VisionRuntime } from './visionMcp/compose';
import { createVisionMcpServer } from './visionMcp/server';

/** Bad configuration: one clear line on stderr and exit code 1 (stdout stays JSON-RPC only). */
function exitWithConfigError(error: unknown): never {
  const data = toAppErrorData(error);
  const detail = data.code === 'INTERNAL_ERROR' && error instanceof Error ? error.message : data.message;
  process.stderr.write(`cadsight-vision: [${data.code}] ${detail}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const redactor = createRedactor();
  let config: VisionMcpConfig;
  try {
    config = visionConfigFromEnv(process.env, { dataDir: resolveDataDir({ env: process.env, platform: process.platform, homedir: homedir() }).dir });
  } catch (error) {
    exitWithConfigError(error);
  }
  const key = config.provider.getApiKey();
  if (key) redactor.registerSecret(key);
  const log = createLogger({ sink: (line) => process.stderr.write(`${line}\n`), level: config.logLevel, redactor, base: { app: 'cadsight-vision', pid: process.pid } });

  for (const notice of config.notices) log.warn(notice);
  let sweeper: NodeJS.Timeout | undefined;
  // The database is opened by the first tool call (see composeOnFirstUse); expired sessions are
  // swept then and periodically after.
  const runtime: VisionRuntime = composeOnFirstUse(
    () => composeVisionRuntime(config, log),
    (composed) => {
      const sweep = () => {
        try {
          const { deleted, skippedBusy } = composed.service.sweepExpired();
          if (deleted.length + skippedBusy.length > 0) log.info('session sweep', { deleted: deleted.length, skippedBusy: skippedBusy.length });
        } catch (error) {
          log.warn('session sweep failed', { code: toAppErrorData(error).code });
        }
      };
      sweep();
      sweeper = setInterval(sweep, Math.min(config.sessionTtlMs / 4, 10 * 60_000));
      sweeper.unref();
    },
  );
  const server = createVisionMcpServer({ service: runtime.service, log, verbose: config.verbose }, packageJson.version);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    clearInterval(sweeper);
    await server.close().catch(() => undefined);
    runtime.close();
    process.exit(0);
  };
  // An MCP client ends the server by closing our stdin.
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());

  await server.connect(new LineStdioServerTransport({ log }));
  log.info('cadsight-vision ready', { provider: config.provider.id, model: config.provider.model, database: config.databaseFile });
}

void main();

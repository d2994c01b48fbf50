import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppRuntime } from './composition/appRuntime';
import { startBrowserServer } from './browser/browserServer';

// Browser-mode composition root: `npm run serve [-- --port N]`, and the fallback of
// `npm start` where no Electron binary exists. stdout carries exactly one line (the ready
// line with the URL); everything else goes to stderr.
const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } }, allowPositionals: false });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`cadsight serve: --port must be an integer 0-65535 (0 = any free port), got "${values.port}"\n`);
    process.exit(1);
  }
  const staticDir = path.resolve(here, '../renderer');
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    process.stderr.write('cadsight serve: the renderer is not built; run `npm run build` first.\n');
    process.exit(1);
  }
  const runtime = await createAppRuntime({
    transport: 'browser',
    env: process.env,
    systemLocale: Intl.DateTimeFormat().resolvedOptions().locale,
    version: process.env.npm_package_version ?? '0.1.0',
  });
  const server = await startBrowserServer({
    router: runtime.router,
    subscribeEvents: (sink) => runtime.events.subscribe(sink),
    staticDir,
    port,
    onInternalError: (error) => runtime.log.error('browser host error', { error: String(error) }),
  });
  process.stdout.write(`CadSight ready: ${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => runtime.close()).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`cadsight serve: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

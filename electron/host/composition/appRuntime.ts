import { ipcChannels, ipcEvents, type IpcEvents } from '../../../shared/ipc/channels';
import { createOcctRuntime } from '../../features/cadgen/index';
import { createEventBus, type EventBus } from '../../platform/events/eventBus';
import { createIpcRouter, type IpcRouter } from '../../platform/ipc/router';
import type { Logger } from '../../platform/log/types';
import type { SafeStorageLike } from '../../platform/secrets/types';
import { createCadgenHandlers, findBundledExamples } from './cadgenHandlers';
import { tasksRootOf } from './cadgenGeneration';
import { createGenerationHandlers } from './generationHandlers';
import { resolveRoleModel } from './modelResolution';
import { createPlatformHandlers } from './platformHandlers';
import { createPlatformRuntime } from './platformRuntime';
import { runDoctor } from '../doctor/doctorCheck';
import { systemChecks } from '../doctor/systemChecks';
import { createReviewHandlers, createReviewSetHandlers, createReviewWorkspace } from './reviewHandlers';
import { createVisionHandlers } from './visionHandlers';

export interface AppRuntimeOptions {
  transport: 'electron' | 'browser';
  env: Readonly<Record<string, string | undefined>>;
  systemLocale: string;
  version: string;
  electronUserData?: string;
  safeStorage?: SafeStorageLike;
}

/** What a transport needs: the router, the event bus, a logger, and disposal. */
export interface AppRuntime {
  router: IpcRouter;
  events: EventBus<IpcEvents>;
  log: Logger;
  /**
   * Stops background generation runs at a step boundary (bounded wait, GENERATION_SHUTDOWN_WAIT_MS;
   * they stay resumable), then closes the kernel and the platform.
   */
  close(): Promise<void>;
}

/** How long close() waits for generation runs to reach a step boundary (a kernel build may be in flight). */
export const GENERATION_SHUTDOWN_WAIT_MS = 15_000;

/**
 * The composition of the app behind either transport (Electron IPC or browser-mode WebSocket):
 * platform services, every slice's handlers, the IPC router and the event bus.
 */
export async function createAppRuntime(options: AppRuntimeOptions): Promise<AppRuntime> {
  const platform = createPlatformRuntime({
    env: options.env,
    systemLocale: options.systemLocale,
    logName: `${options.transport}.log`,
    ...(options.electronUserData ? { electronUserData: options.electronUserData } : {}),
    ...(options.safeStorage ? { safeStorage: options.safeStorage } : {}),
  });
  const log = platform.log;
  const events = createEventBus(ipcEvents, (error) => log.error('event sink failed', { error: String(error) }));
  const identity = { version: options.version, transport: options.transport, systemLocale: options.systemLocale };
  // The OCCT worker (a sibling bundle in dist/node) starts on the first build, is reused, and close() ends it.
  const workerScript = new URL('../node/occtWorker.js', import.meta.url);
  const cadRuntime = createOcctRuntime({ workerScript });
  // Generation runs share the kernel; models come from the roles in Settings (or a "provider/model" override).
  const generation = createGenerationHandlers({
    db: platform.db, tasksRoot: tasksRootOf(platform.layout.root), events, runtime: cadRuntime, workerScript, log,
    resolveModel: (role, override) => resolveRoleModel(platform.settings, options.env, role, override),
  });
  const review = createReviewWorkspace(platform, { events, version: options.version });
  const handlers = {
    // The app's system check reuses its warm kernel and reads providers from Settings (which
    // already carry the CADSIGHT_* environment overrides).
    ...createPlatformHandlers(platform, identity, ({ liveModels }) =>
      runDoctor(systemChecks({ platform, env: options.env, liveModels, envProviders: false, kernel: { get: () => cadRuntime, owned: false } })),
    ),
    ...createCadgenHandlers(platform, { events, runtime: cadRuntime, examplesDir: findBundledExamples(import.meta.url), clock: () => new Date() }),
    ...generation.handlers,
    ...createReviewHandlers(review),
    ...createReviewSetHandlers(review),
    ...createVisionHandlers(platform, { events, pdfWorkerScript: new URL('../node/pdfWorker.js', import.meta.url) }),
  };
  const router = createIpcRouter(
    ipcChannels,
    handlers,
    (channel, error) => log.error('internal error in IPC handler', { channel, error: error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error) }),
    { storageFolder: platform.layout.root },
  );
  return {
    router,
    events,
    log,
    async close() {
      if (!(await generation.shutdown(GENERATION_SHUTDOWN_WAIT_MS))) log.warn('generation runs still busy at shutdown; their tasks stay interrupted and resumable', { waitMs: GENERATION_SHUTDOWN_WAIT_MS });
      review.close();
      await cadRuntime.dispose().catch((error: unknown) => log.warn('CAD kernel worker did not stop cleanly', { error: String(error) }));
      platform.close();
    },
  };
}

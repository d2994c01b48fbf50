import { app, BrowserWindow, ipcMain, safeStorage, session } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toAppErrorData } from '../../shared/errors';
import { IPC_PREFIX } from '../../shared/ipc/channels';
import { createAppRuntime, type AppRuntime } from '../host/composition/appRuntime';
import { registerAppScheme, serveRenderer } from './appProtocol';
import { APP_ORIGIN, denyPermissions, enforceCsp, isTrustedSender, lockNavigation } from './hardening';

// Desktop composition root. Everything product-specific is in createAppRuntime; this file
// only does what needs Electron: the window, its hardening, and the IPC transport.
const here = path.dirname(fileURLToPath(import.meta.url));
const rendererRoot = path.resolve(here, '../renderer');
const preloadPath = path.resolve(here, 'preload.cjs');

app.enableSandbox();
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  let runtime: AppRuntime | null = null;

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => lockNavigation(contents));

  app.whenReady().then(async () => {
    denyPermissions(session.defaultSession);
    enforceCsp(session.defaultSession);
    serveRenderer(rendererRoot);

    runtime = await createAppRuntime({
      transport: 'electron',
      env: process.env,
      electronUserData: app.getPath('userData'),
      safeStorage,
      systemLocale: app.getLocale(),
      version: app.getVersion(),
    });

    mainWindow = new BrowserWindow({
      width: 1440,
      height: 900,
      minWidth: 960,
      minHeight: 600,
      title: 'CadSight',
      show: false,
      // Written out here (not built by a helper) so Electronegativity can check it statically.
      webPreferences: {
        // Reviewed: the preload exposes one typed method per IPC channel and nothing else.
        preload: preloadPath /* eng-disable PRELOAD_JS_CHECK */,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        navigateOnDragDrop: false,
        spellcheck: false,
        safeDialogs: true,
        disableBlinkFeatures: 'Auxclick',
      },
    });
    const window = mainWindow;
    window.once('ready-to-show', () => window.show());

    const activeRuntime = runtime;
    for (const channel of activeRuntime.router.channels()) {
      ipcMain.handle(`${IPC_PREFIX}${channel}`, async (event, input: unknown) => {
        if (!isTrustedSender(event.senderFrame, window.webContents, event.sender)) {
          return { ok: false, error: toAppErrorData({ code: 'IPC_FORBIDDEN_SENDER', message: 'Refused: the call did not come from the CadSight window.', retryable: false }) };
        }
        return activeRuntime.router.dispatch(channel, input, { transport: 'electron' });
      });
    }
    activeRuntime.events.subscribe((event, payload) => {
      if (!window.isDestroyed()) window.webContents.send(`${IPC_PREFIX}event`, { event, payload });
    });

    await window.loadURL(`${APP_ORIGIN}/index.html`);
  }).catch((error: unknown) => {
    process.stderr.write(`CadSight failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    app.exit(1);
  });

  app.on('window-all-closed', () => {
    // Generation runs get a bounded moment to stop at a step boundary before the database closes.
    void (runtime?.close() ?? Promise.resolve()).finally(() => app.quit());
  });
}

import { homedir } from 'node:os';
import path from 'node:path';
import { createArtifactStore } from '../../platform/artifacts/artifactStore';
import type { ArtifactStore } from '../../platform/artifacts/types';
import type { StartupNotice } from '../../platform/dataDir/fileSafety';
import { prepareDataDir, resolveDataDir, type DataDirLayout } from '../../platform/dataDir/resolveDataDir';
import { createDamagedRowHandler, type DamagedRowHandler } from '../../platform/db/damagedRows';
import { openDatabase } from '../../platform/db/openDatabase';
import type { SqliteDatabase } from '../../platform/db/types';
import { createLogger, parseLogLevel } from '../../platform/log/logger';
import { createRedactor, type Redactor } from '../../platform/log/redact';
import type { Logger } from '../../platform/log/types';
import { createCompositeSecretStore } from '../../platform/secrets/compositeSecretStore';
import { createEnvSecretStore } from '../../platform/secrets/envSecretStore';
import { createSafeStorageSecretStore } from '../../platform/secrets/safeStorageSecretStore';
import type { SafeStorageLike, SecretStore } from '../../platform/secrets/types';
import { createSettingsService, type SettingsService } from '../../platform/settings/settingsService';
import { allMigrations } from './migrations';

export interface PlatformRuntimeOptions {
  env: Readonly<Record<string, string | undefined>>;
  systemLocale: string;
  /** Desktop app: Electron's userData folder and safeStorage; absent in Node contexts. */
  electronUserData?: string;
  safeStorage?: SafeStorageLike;
  /** Name of the log file under <data>/logs (one per entry point). */
  logName: string;
}

/** The product-agnostic services every composition root needs. Close it once. */
export interface PlatformRuntime {
  layout: DataDirLayout;
  dataDirSource: 'env' | 'electron' | 'os-default';
  db: SqliteDatabase;
  artifacts: ArtifactStore;
  secrets: SecretStore;
  settings: SettingsService;
  redactor: Redactor;
  log: Logger;
  /** Problems found at start (corrupt files moved aside), for the UI banner; also damaged rows found since. */
  notices: StartupNotice[];
  /** Where list queries send rows they cannot read (moved aside, reported once). */
  damagedRows: DamagedRowHandler;
  close(): void;
}

/**
 * Opens the data folder, database (all migrations), artifact store, secrets and settings.
 * Keys: the desktop app encrypts them with safeStorage (falling back to environment variables
 * for reading); Node contexts read environment variables only.
 */
export function createPlatformRuntime(options: PlatformRuntimeOptions): PlatformRuntime {
  const resolved = resolveDataDir({
    env: options.env,
    platform: process.platform,
    homedir: homedir(),
    ...(options.electronUserData ? { electronUserData: options.electronUserData } : {}),
  });
  const layout = prepareDataDir(resolved.dir);
  const redactor = createRedactor();
  const level = parseLogLevel(options.env.CADSIGHT_LOG_LEVEL, 'info', 'CADSIGHT_LOG_LEVEL');
  const log = createLogger({ sink: path.join(layout.logs, options.logName), level, redactor, base: { pid: process.pid } });

  let settingsRef: SettingsService | undefined;
  // Only while a provider points at its preset's own host may the preset's key variable be used.
  const presetOf = (id: string) => settingsRef?.keyPresetOf(id);
  const envSecrets = createEnvSecretStore(options.env, { presetOf, registry: redactor });
  const notices: StartupNotice[] = [];
  let secrets: SecretStore = envSecrets;
  if (options.safeStorage) {
    const stored = createSafeStorageSecretStore({ safeStorage: options.safeStorage, file: layout.secrets, platform: process.platform, registry: redactor });
    notices.push(...stored.notices);
    secrets = createCompositeSecretStore(stored, envSecrets);
  }
  const settings = createSettingsService({ file: layout.settings, secrets, env: options.env, systemLocale: options.systemLocale, log });
  settingsRef = settings;
  notices.push(...settings.notices);

  const opened = openDatabase({ file: layout.database, migrations: allMigrations, log, preallocateWal: true });
  notices.push(...opened.notices);
  const artifacts = createArtifactStore(layout.artifacts);
  // Staging files older than an hour belong to writes that died with an earlier process.
  void artifacts.removeStaleStaging(new Date(Date.now() - 3_600_000)).catch((error: unknown) => log.warn('stale staging cleanup failed', { error: String(error) }));
  log.info('platform ready', { dataDir: layout.root, dataDirSource: resolved.source, migrationsApplied: opened.migrations });

  return {
    layout,
    dataDirSource: resolved.source,
    db: opened.db,
    artifacts,
    secrets,
    settings,
    redactor,
    log,
    notices,
    damagedRows: createDamagedRowHandler({ db: opened.db, file: layout.database, now: () => new Date(), log, notices }),
    close() {
      if (opened.db.open) opened.db.close();
    },
  };
}

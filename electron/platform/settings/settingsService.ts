import type { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { platformChannels, type settingsViewSchema } from '../../../shared/ipc/contracts/platform';
import { writeFileAtomicSync, type StartupNotice } from '../dataDir/fileSafety';
import { loadJsonFile } from '../dataDir/jsonFile';
import type { LlmProviderConfig } from '../llm/types';
import type { Logger } from '../log/types';
import type { SecretStore } from '../secrets/types';
import { absolutePathsSchema, applyEnvOverrides, type EffectiveSettings } from './envOverrides';
import { presetKeyScope, sameBaseUrl } from './presetKeyScope';
import { resolveProviderConfig, type ProviderTarget } from './resolveProvider';
import { defaultSettings, SETTINGS_VERSION, settingsFileSchema, type SettingsFile } from './schema';

export type SettingsView = z.output<typeof settingsViewSchema>;
type ChannelInput<K extends keyof typeof platformChannels> = z.input<(typeof platformChannels)[K]['input']>;

/**
 * Settings of the app: settings.json (versioned, written atomically) + environment overrides,
 * API keys delegated to the SecretStore. Methods named after the platform IPC channels take
 * that channel's input and return the settings view (keys only as keyConfigured/keySource).
 * Errors: SETTINGS_INVALID, SETTINGS_NOT_FOUND, SECRETS_UNAVAILABLE / SECRETS_INVALID (from the
 * secret store), STORAGE_FULL (retryable: the disk is full, over quota or read-only), STORE_IO (the
 * file could not be written otherwise).
 */
export interface SettingsService {
  /** SETTINGS_CORRUPT_MOVED_ASIDE when an invalid settings.json was replaced by defaults. */
  readonly notices: StartupNotice[];
  getSettings(): SettingsView;
  /** Adds or replaces a provider; apiKey omitted = keep, '' = remove, else store it. */
  saveProvider(input: ChannelInput<'saveProvider'>): SettingsView;
  /** Removes a provider, its stored key, and the roles that used it. */
  deleteProvider(input: ChannelInput<'deleteProvider'>): SettingsView;
  setRoleModel(input: ChannelInput<'setRoleModel'>): SettingsView;
  setLocale(input: ChannelInput<'setLocale'>): SettingsView;
  setGeneral(input: ChannelInput<'setGeneral'>): SettingsView;
  /** Effective settings (file + env) incl. limits, for composition roots; never contains keys. */
  effective(): EffectiveSettings;
  /** See resolveProviderConfig. */
  resolveProvider(target: ProviderTarget): LlmProviderConfig;
  /** The preset of a provider id. */
  presetOf(providerId: string): SettingsFile['providers'][number]['preset'] | undefined;
  /**
   * The preset whose conventional key variable the env secret store may use for this provider
   * (e.g. OPENAI_API_KEY for "my-openai"): only while it points at the preset's own base URL.
   */
  keyPresetOf(providerId: string): SettingsFile['providers'][number]['preset'] | undefined;
}

export interface CreateSettingsServiceOptions {
  /** `<data>/settings.json`. */
  file: string;
  secrets: SecretStore;
  env: Readonly<Record<string, string | undefined>>;
  /** OS locale (e.g. "zh-CN", "en-US"); used while the settings locale is null. */
  systemLocale: string;
  log?: Logger;
  now?: () => Date;
}

/** Loads settings.json (moving an invalid one aside) and returns the service. Errors: SETTINGS_TOO_NEW, STORE_IO. */
export function createSettingsService(options: CreateSettingsServiceOptions): SettingsService {
  const notices: StartupNotice[] = [];
  let stored = load(options, notices);

  const effective = (): EffectiveSettings => applyEnvOverrides(stored, options.env);

  const view = (): SettingsView => {
    const { settings, envOverrides } = effective();
    const followOs = options.systemLocale.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
    return {
      locale: settings.locale ?? followOs,
      providers: settings.providers.map((provider) => {
        const keySource = options.secrets.source(provider.id);
        return { ...provider, keyConfigured: keySource !== 'none', keySource };
      }),
      roles: settings.roles,
      cad: settings.cad,
      allowedRoots: settings.allowedRoots,
      secretStorage: options.secrets.status(),
      envOverrides,
    };
  };

  const update = (change: string, next: SettingsFile): SettingsView => {
    const checked = validate(next);
    try {
      writeFileAtomicSync(options.file, `${JSON.stringify(checked, null, 2)}\n`);
    } catch (error) {
      if (error instanceof AppError) throw error; // STORAGE_FULL: says which folder and how much
      throw new AppError('STORE_IO', 'The settings file could not be written.', { data: { errno: (error as NodeJS.ErrnoException).code ?? 'unknown' }, cause: error });
    }
    stored = checked;
    options.log?.info('settings changed', { change });
    return view();
  };

  const requireProvider = (id: string) => {
    const provider = stored.providers.find((p) => p.id === id);
    if (!provider) throw new AppError('SETTINGS_NOT_FOUND', `There is no provider "${id}" in the settings.`, { data: { providerId: id } });
    return provider;
  };

  return {
    notices,
    getSettings: view,
    saveProvider(input) {
      const { apiKey, ...provider } = parseInput(platformChannels.saveProvider.input, input);
      const others = stored.providers.filter((p) => p.id !== provider.id);
      const roles = rolesWithout(stored.roles, (choice) => choice.providerId === provider.id && !provider.models.includes(choice.model));
      const next = validate({ ...stored, providers: [...others, provider], roles });
      // The key goes after validation and before the file: when either the new settings are
      // invalid or the keychain refuses the key, nothing at all has changed.
      const previous = stored.providers.find((p) => p.id === provider.id);
      // A key saved for one host is not carried to another: moving a provider drops its stored key.
      const moved = previous !== undefined && !sameBaseUrl(previous.baseUrl, provider.baseUrl);
      if (apiKey === '' || (apiKey === undefined && moved && options.secrets.source(provider.id) === 'secret-store')) options.secrets.delete(provider.id);
      else if (apiKey !== undefined) options.secrets.set(provider.id, apiKey);
      return update(`saveProvider ${provider.id}`, next);
    },
    deleteProvider(input) {
      const { id } = parseInput(platformChannels.deleteProvider.input, input);
      requireProvider(id);
      options.secrets.delete(id);
      const roles = rolesWithout(stored.roles, (choice) => choice.providerId === id);
      return update(`deleteProvider ${id}`, { ...stored, providers: stored.providers.filter((p) => p.id !== id), roles });
    },
    setRoleModel(input) {
      const { role, value } = parseInput(platformChannels.setRoleModel.input, input);
      if (value !== null && !requireProvider(value.providerId).models.includes(value.model)) {
        throw new AppError('SETTINGS_NOT_FOUND', `Provider "${value.providerId}" does not list model "${value.model}".`, { data: { ...value } });
      }
      return update(`setRoleModel ${role}`, { ...stored, roles: { ...stored.roles, [role]: value } });
    },
    setLocale(input) {
      const { locale } = parseInput(platformChannels.setLocale.input, input);
      return update('setLocale', { ...stored, locale });
    },
    setGeneral(input) {
      const general = parseInput(platformChannels.setGeneral.input, input);
      const allowedRoots = general.allowedRoots === undefined ? stored.allowedRoots : parseInput(absolutePathsSchema, general.allowedRoots);
      const cad = general.cad === undefined ? stored.cad : { ...general.cad, allowRemote: general.cad.allowRemote ?? stored.cad.allowRemote };
      return update('setGeneral', { ...stored, cad, allowedRoots });
    },
    effective,
    resolveProvider: (target) => resolveProviderConfig(effective().settings, options.secrets, target),
    presetOf: (providerId) => effective().settings.providers.find((p) => p.id === providerId)?.preset,
    keyPresetOf: (providerId) => presetKeyScope(effective().settings.providers.find((p) => p.id === providerId)),
  };
}

function rolesWithout(roles: SettingsFile['roles'], drop: (choice: { providerId: string; model: string }) => boolean): SettingsFile['roles'] {
  const keep = (choice: SettingsFile['roles']['vision']) => (choice !== null && drop(choice) ? null : choice);
  return { vision: keep(roles.vision), author: keep(roles.author), reviewer: keep(roles.reviewer) };
}

function load(options: CreateSettingsServiceOptions, notices: StartupNotice[]): SettingsFile {
  const loaded = loadJsonFile({
    file: options.file,
    schema: settingsFileSchema,
    now: (options.now ?? (() => new Date()))(),
    refuseBeforeMoveAside: (raw) => {
      const version = (raw as { version?: unknown } | null)?.version;
      if (typeof version === 'number' && version > SETTINGS_VERSION) {
        throw new AppError('SETTINGS_TOO_NEW', `settings.json was written by a newer CadSight (format ${version}); update CadSight.`, { data: { version } });
      }
    },
  });
  if (loaded.kind === 'ok') return loaded.value;
  if (loaded.kind === 'moved-aside') {
    options.log?.warn('invalid settings file moved aside', { movedTo: loaded.movedTo });
    notices.push({
      code: 'SETTINGS_CORRUPT_MOVED_ASIDE',
      message: `The settings file was invalid; it was moved to ${loaded.movedTo} and default settings are used.`,
      data: { movedTo: loaded.movedTo },
    });
  }
  return defaultSettings();
}

function validate(next: SettingsFile): SettingsFile {
  return parseInput(settingsFileSchema, next);
}

function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  throw new AppError('SETTINGS_INVALID', `Invalid settings: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, { data: { issues } });
}

import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { localeSchema } from '../../../shared/ipc/contracts/platform';
import { providerPresets } from '../llm/presets';
import { isPresetId } from '../secrets/envKeyNames';
import { ROLE_NAMES, cadEndpointSchema, limitsSchema, providerSettingsSchema, type Limits, type ProviderSettings, type RoleName, type SettingsFile } from './schema';

type Env = Readonly<Record<string, string | undefined>>;

/** Settings with environment overrides applied, and which fields they replaced. */
export interface EffectiveSettings {
  settings: SettingsFile;
  /** Overridden field paths, e.g. "cad.port", "roles.vision", "providers.qwen" (read-only in the UI). */
  envOverrides: string[];
}

const LIMIT_VARIABLES: Readonly<Record<string, keyof Limits>> = {
  CADSIGHT_LLM_TIMEOUT_MS: 'llmTimeoutMs',
  CADSIGHT_MAX_IMAGE_EDGE: 'maxImageEdge',
  CADSIGHT_SESSION_TTL_HOURS: 'sessionTtlHours',
  CADSIGHT_MAX_DOWNLOAD_BYTES: 'maxDownloadBytes',
};

/**
 * Every environment variable that overrides settings (the MCP servers are configured by these
 * alone). `<ROLE>` is VISION, AUTHOR or REVIEWER. Keys are not settings: see secrets/envKeyNames.
 */
export const SETTINGS_ENV_VARIABLES: Readonly<Record<string, string>> = {
  CADSIGHT_LOCALE: 'UI language: zh-CN or en',
  CADSIGHT_CAD_HOST: 'AutoCAD plugin host',
  CADSIGHT_CAD_PORT: 'AutoCAD plugin TCP port (1-65535)',
  CADSIGHT_CAD_ALLOW_REMOTE: 'browser mode may connect to AutoCAD on another host: 1 or 0',
  CADSIGHT_ALLOWED_ROOTS: `allowed local folders, absolute, separated by "${path.delimiter}"`,
  CADSIGHT_ROLE_PROVIDER: 'provider id for the role (a settings provider or a preset id: openai, qwen, ollama, ...)',
  CADSIGHT_ROLE_MODEL: "model for the role (default: the provider's first model / the preset's default)",
  CADSIGHT_ROLE_BASE_URL: "base URL of the role's provider (required for the custom preset)",
  ...Object.fromEntries(Object.entries(LIMIT_VARIABLES).map(([name, limit]) => [name, `limits.${limit} (integer)`])),
};

/**
 * Applies the variables of SETTINGS_ENV_VARIABLES on top of the file settings. Pure.
 * Errors: SETTINGS_INVALID naming the variable (its value is never echoed: it could be a key
 * pasted into the wrong variable).
 */
export function applyEnvOverrides(file: SettingsFile, env: Env): EffectiveSettings {
  const settings: SettingsFile = structuredClone(file);
  const overrides: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const locale = read('CADSIGHT_LOCALE');
  if (locale !== undefined) {
    settings.locale = parseEnv('CADSIGHT_LOCALE', localeSchema, locale);
    overrides.push('locale');
  }
  const host = read('CADSIGHT_CAD_HOST');
  if (host !== undefined) {
    settings.cad = parseEnv('CADSIGHT_CAD_HOST', cadEndpointSchema, { ...settings.cad, host });
    overrides.push('cad.host');
  }
  const port = read('CADSIGHT_CAD_PORT');
  if (port !== undefined) {
    settings.cad = parseEnv('CADSIGHT_CAD_PORT', cadEndpointSchema, { ...settings.cad, port: integer(port) });
    overrides.push('cad.port');
  }
  const allowRemote = read('CADSIGHT_CAD_ALLOW_REMOTE');
  if (allowRemote !== undefined) {
    if (allowRemote !== '1' && allowRemote !== '0') throw new AppError('SETTINGS_INVALID', 'CADSIGHT_CAD_ALLOW_REMOTE must be 1 or 0.', { data: { env: 'CADSIGHT_CAD_ALLOW_REMOTE' } });
    settings.cad = { ...settings.cad, allowRemote: allowRemote === '1' };
    overrides.push('cad.allowRemote');
  }
  const roots = read('CADSIGHT_ALLOWED_ROOTS');
  if (roots !== undefined) {
    settings.allowedRoots = parseEnv('CADSIGHT_ALLOWED_ROOTS', absolutePathsSchema, roots.split(path.delimiter).filter((r) => r !== ''));
    overrides.push('allowedRoots');
  }
  for (const [name, limit] of Object.entries(LIMIT_VARIABLES)) {
    const value = read(name);
    if (value === undefined) continue;
    settings.limits = parseEnv(name, limitsSchema, { ...settings.limits, [limit]: integer(value) });
    overrides.push(`limits.${limit}`);
  }
  for (const role of ROLE_NAMES) applyRoleOverride(settings, role, read, overrides);
  return { settings, envOverrides: overrides };
}

/** Absolute paths only: a relative allowed root would depend on the process's working folder. */
export const absolutePathsSchema = z.array(z.string().min(1).max(1000).refine((p) => path.isAbsolute(p), 'must be an absolute path')).max(50);

function applyRoleOverride(settings: SettingsFile, role: RoleName, read: (name: string) => string | undefined, overrides: string[]): void {
  const prefix = `CADSIGHT_${role.toUpperCase()}`;
  const providerId = read(`${prefix}_PROVIDER`) ?? settings.roles[role]?.providerId;
  const model = read(`${prefix}_MODEL`);
  const baseUrl = read(`${prefix}_BASE_URL`);
  if (read(`${prefix}_PROVIDER`) === undefined && model === undefined && baseUrl === undefined) return;
  if (providerId === undefined) {
    throw new AppError('SETTINGS_INVALID', `${prefix}_MODEL/${prefix}_BASE_URL need ${prefix}_PROVIDER (no provider is chosen for the ${role} role).`, {
      data: { env: `${prefix}_PROVIDER` },
    });
  }
  const provider = providerFor(settings, { id: providerId, baseUrl, model }, prefix, overrides);
  // An existing provider always has at least one model (schema), so this is defined.
  const chosenModel = model ?? (provider.models[0] as string);
  if (!provider.models.includes(chosenModel)) provider.models = [...provider.models, chosenModel];
  settings.roles[role] = { providerId, model: chosenModel };
  overrides.push(`roles.${role}`);
}

interface RoleProviderRequest {
  id: string;
  baseUrl: string | undefined;
  model: string | undefined;
}

/** The settings provider with that id, or one made from the preset of the same name. */
function providerFor(settings: SettingsFile, request: RoleProviderRequest, prefix: string, overrides: string[]): ProviderSettings {
  const { id, baseUrl, model } = request;
  const existing = settings.providers.find((p) => p.id === id);
  if (existing) {
    if (baseUrl !== undefined) {
      existing.baseUrl = parseEnv(`${prefix}_BASE_URL`, providerSettingsSchema.shape.baseUrl, baseUrl);
      overrides.push(`providers.${id}.baseUrl`);
    }
    return existing;
  }
  if (!isPresetId(id)) {
    throw new AppError('SETTINGS_INVALID', `${prefix}_PROVIDER names a provider that is neither in the settings nor a preset id.`, {
      data: { env: `${prefix}_PROVIDER` },
    });
  }
  const preset = providerPresets[id];
  const url = baseUrl ?? preset.baseUrl;
  if (url === null) throw new AppError('SETTINGS_INVALID', `${prefix}_BASE_URL is required for the ${preset.label} preset.`, { data: { env: `${prefix}_BASE_URL` } });
  const firstModel = model ?? preset.defaultModel;
  if (firstModel === null) throw new AppError('SETTINGS_INVALID', `${prefix}_MODEL is required for the ${preset.label} preset.`, { data: { env: `${prefix}_MODEL` } });
  const created = parseEnv(`${prefix}_BASE_URL`, providerSettingsSchema, {
    id,
    label: preset.label,
    preset: id,
    protocol: preset.protocol,
    baseUrl: url,
    models: [firstModel],
    forceStreaming: false,
    // The user named this base URL in their own environment: that is the confirmation.
    allowLocalNetwork: true,
  });
  settings.providers.push(created);
  overrides.push(`providers.${id}`);
  return created;
}

function integer(text: string): number {
  return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
}

function parseEnv<T>(variable: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError('SETTINGS_INVALID', `Environment variable ${variable} is invalid: ${issue?.path.join('.') || 'value'} ${issue?.message ?? ''}`.trim(), {
    data: { env: variable },
  });
}

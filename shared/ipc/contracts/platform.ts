import { z } from 'zod';

/** Platform channels: app info, settings, providers, secrets status. */

export const localeSchema = z.enum(['zh-CN', 'en']);

export const providerKindSchema = z.enum(['openai', 'chat', 'anthropic']);
export const providerPresetSchema = z.enum(['openai', 'anthropic', 'qwen', 'kimi', 'deepseek', 'zhipu', 'ollama', 'custom']);

/** A provider as the renderer sees it: never the key, only whether one is configured. */
export const providerViewSchema = z
  .object({
    id: z.string().min(1).max(64),
    label: z.string().max(120),
    preset: providerPresetSchema,
    protocol: z.enum(['openai-responses', 'chat-completions', 'anthropic-messages']),
    baseUrl: z.string().url(),
    models: z.array(z.string().min(1).max(200)).max(50),
    forceStreaming: z.boolean(),
    keyConfigured: z.boolean(),
    /** Where the key comes from: stored secret, environment variable, or none. */
    keySource: z.enum(['secret-store', 'env', 'none']),
    /** The user confirmed that this Custom provider may reach a local or private address. */
    allowLocalNetwork: z.boolean(),
  })
  .strict();

export const providerInputSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
    label: z.string().min(1).max(120),
    preset: providerPresetSchema,
    protocol: z.enum(['openai-responses', 'chat-completions', 'anthropic-messages']),
    baseUrl: z.string().url().max(500),
    models: z.array(z.string().min(1).max(200)).min(1).max(50),
    forceStreaming: z.boolean().default(false),
    /**
     * Explicit confirmation that a Custom provider may call a loopback/private base URL (a
     * gateway on this machine or network); without it such a provider is refused with
     * SETTINGS_BASE_URL_NOT_ALLOWED. Ollama needs none; hosted presets are never allowed there.
     */
    allowLocalNetwork: z.boolean().default(false),
    /** New API key; omitted = keep the stored one; empty string = remove it. */
    apiKey: z.string().max(500).optional(),
  })
  .strict();

export const roleModelSchema = z.object({ providerId: z.string(), model: z.string() }).strict().nullable();

export const settingsViewSchema = z
  .object({
    locale: localeSchema,
    providers: z.array(providerViewSchema),
    roles: z.object({ vision: roleModelSchema, author: roleModelSchema, reviewer: roleModelSchema }).strict(),
    /** `allowRemote`: browser mode may connect to AutoCAD on another host (default: loopback only). */
    cad: z.object({ host: z.string(), port: z.number().int().min(1).max(65535), allowRemote: z.boolean() }).strict(),
    allowedRoots: z.array(z.string()),
    /** Whether API keys can be stored persistently on this machine (keychain available). */
    secretStorage: z.object({ available: z.boolean(), backend: z.string() }).strict(),
    /** Settings fields currently overridden by environment variables (read-only in the UI). */
    envOverrides: z.array(z.string()),
  })
  .strict();

export const appInfoSchema = z
  .object({
    version: z.string(),
    transport: z.enum(['electron', 'browser']),
    dataDir: z.string(),
    systemLocale: z.string(),
    /** Problems found at start (e.g. a corrupt database moved aside), shown once in the banner. */
    startupNotices: z.array(z.object({ code: z.string(), message: z.string() }).strict()),
  })
  .strict();

/**
 * A provider row's failure in user terms. `not-configured`: no key (or model); `key-refused`: HTTP
 * 401/403; `not-found`: HTTP 404 (wrong address or model name); `unreachable`: no answer, or only
 * server errors; `rejected`: any other refusal; `no-text`: answered but not with text.
 * `action` names what the app offers: open this provider in Settings.
 */
export const systemCheckProblemSchema = z
  .object({
    code: z.enum(['not-configured', 'key-refused', 'not-found', 'unreachable', 'rejected', 'no-text']),
    /** The HTTP status or host involved, when there is one. */
    status: z.number().int().optional(),
    host: z.string().optional(),
    action: z.enum(['edit-provider']).optional(),
  })
  .strict();
export type SystemCheckProblem = z.infer<typeof systemCheckProblemSchema>;

/**
 * What a row found, as a code the UI words in the user's language; `params` are the facts the
 * words need (paths, versions, counts, error codes), never prose. The English `detail` says the
 * same for the CLI. `check-error`: the check threw (params.code is the typed error code).
 */
export const systemCheckFindingSchema = z
  .object({
    code: z.enum([
      'node-version',
      'node-too-old',
      'electron-binary',
      'electron-missing',
      'kernel-started',
      'ffmpeg-version',
      'ffmpeg-missing',
      'font-loaded',
      'data-ok',
      'data-pragmas',
      'providers-none',
      'cad-pass',
      'cad-fail',
      'cad-unreachable',
      'check-error',
    ]),
    params: z.record(z.string(), z.union([z.string(), z.number()])),
  })
  .strict();
export type SystemCheckFinding = z.infer<typeof systemCheckFindingSchema>;

/** One row of the system check (`cadsight doctor` and Settings → System check). */
export const systemCheckItemSchema = z
  .object({
    /** Stable id (e.g. `node`, `kernel`, `provider:qwen`, `cad`); the UI translates its label by the part before ':'. */
    id: z.string(),
    group: z.enum(['runtime', 'kernel', 'data', 'provider', 'cad']),
    /** English label (the CLI prints it; the UI shows its own translation). */
    label: z.string(),
    /** pass: works; warn: optional piece missing or not configured; fail: configured but broken; skip: not checked. */
    status: z.enum(['pass', 'warn', 'fail', 'skip']),
    /** What was found, or what failed with its error code and the fix (never a key). English, for the CLI. */
    detail: z.string(),
    durationMs: z.number(),
    /** Provider rows: which provider (its Settings name, or the preset's for an environment provider) and model. */
    provider: z.object({ id: z.string(), name: z.string(), model: z.string().optional() }).strict().optional(),
    /** Why a row is not OK, as a code the UI words in the user's language, and what the app can do about it. */
    problem: systemCheckProblemSchema.optional(),
    /** Rows other than a provider's: what was found, for the UI to word (absent on provider rows, which use `provider`/`problem`). */
    finding: systemCheckFindingSchema.optional(),
  })
  .strict();
export type SystemCheckItem = z.infer<typeof systemCheckItemSchema>;

export const systemCheckReportSchema = z
  .object({ checkedAt: z.string(), ok: z.boolean(), items: z.array(systemCheckItemSchema) })
  .strict();
export type SystemCheckReport = z.infer<typeof systemCheckReportSchema>;

export const platformChannels = {
  /** App version, transport, data folder and start-up notices. */
  getAppInfo: { input: z.object({}).strict(), output: appInfoSchema },
  /** Current settings with env overrides applied; keys reported as configured flags only. */
  getSettings: { input: z.object({}).strict(), output: settingsViewSchema },
  /** Sets the UI language. */
  setLocale: { input: z.object({ locale: localeSchema }).strict(), output: settingsViewSchema },
  /** Adds or replaces a provider. Errors: SETTINGS_INVALID, SECRETS_UNAVAILABLE (key given but no keychain). */
  saveProvider: { input: providerInputSchema, output: settingsViewSchema },
  /** Removes a provider and its stored key. Errors: SETTINGS_NOT_FOUND. */
  deleteProvider: { input: z.object({ id: z.string() }).strict(), output: settingsViewSchema },
  /** Chooses the default model per role (null clears it). Errors: SETTINGS_NOT_FOUND. */
  setRoleModel: {
    input: z.object({ role: z.enum(['vision', 'author', 'reviewer']), value: roleModelSchema }).strict(),
    output: settingsViewSchema,
  },
  /** Sets CAD host/port (and whether browser mode may reach a remote AutoCAD) and allowed folders. */
  setGeneral: {
    input: z
      .object({
        cad: z.object({ host: z.string().min(1).max(255), port: z.number().int().min(1).max(65535), allowRemote: z.boolean().optional() }).strict().optional(),
        allowedRoots: z.array(z.string().min(1).max(1000)).max(50).optional(),
      })
      .strict(),
    output: settingsViewSchema,
  },
  /**
   * Sends a tiny request to the provider's model. Errors: LLM_AUTH, LLM_NOT_FOUND,
   * LLM_TRANSPORT_UNAVAILABLE, LLM_NOT_CONFIGURED, SETTINGS_NOT_FOUND.
   */
  testProvider: {
    input: z.object({ id: z.string(), model: z.string().optional() }).strict(),
    output: z.object({ ok: z.literal(true), model: z.string(), latencyMs: z.number(), reply: z.string() }).strict(),
  },
  /**
   * Runs the system check: Node, Electron binary or browser mode, the OpenCascade kernel, ffmpeg,
   * CJK fonts, the data folder, each configured provider (key, reachable; with `liveModels` also
   * the capability checks, which send a few short requests) and the AutoCAD address. Failures are
   * rows of the report (`ok` false when a configured piece is broken), never an error reply.
   */
  runSystemCheck: {
    input: z.object({ liveModels: z.boolean() }).strict(),
    output: systemCheckReportSchema,
  },
} as const;

export const platformEvents = {
  /** A notice for the error banner (e.g. a background task failed). */
  notice: z.object({ level: z.enum(['info', 'warning', 'error']), code: z.string(), message: z.string() }).strict(),
  /** Progress of a long task. */
  progress: z
    .object({ taskId: z.string(), phase: z.string(), done: z.number(), total: z.number(), message: z.string().optional() })
    .strict(),
} as const;

import { z } from 'zod';
import { localeSchema, providerInputSchema, roleModelSchema } from '../../../shared/ipc/contracts/platform';

/** Version of settings.json this code writes; a newer file is refused (SETTINGS_TOO_NEW). */
export const SETTINGS_VERSION = 1;

/** A provider as stored: the IPC input without the key (keys live only in the secret store). */
export const providerSettingsSchema = providerInputSchema.omit({ apiKey: true });
export type ProviderSettings = z.output<typeof providerSettingsSchema>;

export const ROLE_NAMES = ['vision', 'author', 'reviewer'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** Numeric limits the slices read (defaults match ARCHITECTURE.md). */
export const limitsSchema = z
  .object({
    /** Per-attempt LLM timeout. */
    llmTimeoutMs: z.number().int().min(1000).max(600_000).default(120_000),
    /** Longest image edge sent to a vision model. */
    maxImageEdge: z.number().int().min(256).max(8192).default(1280),
    /** Vision session time-to-live. */
    sessionTtlHours: z.number().int().min(1).max(24 * 90).default(24),
    /** Byte cap of one downloaded image/document. */
    maxDownloadBytes: z.number().int().min(1024).max(1024 ** 3).default(32 * 1024 * 1024),
  })
  .strict();
export type Limits = z.output<typeof limitsSchema>;

/** `allowRemote` lets browser mode connect to AutoCAD on another host (off: loopback only). */
export const cadEndpointSchema = z.object({ host: z.string().min(1).max(255), port: z.number().int().min(1).max(65535), allowRemote: z.boolean().default(false) }).strict();

/** settings.json. Every field has a default so a hand-written `{"version":1}` is valid. */
export const settingsFileSchema = z
  .object({
    version: z.literal(SETTINGS_VERSION),
    /** null = follow the OS language. */
    locale: localeSchema.nullable().default(null),
    providers: z.array(providerSettingsSchema).max(50).default([]),
    roles: z
      .object({ vision: roleModelSchema.default(null), author: roleModelSchema.default(null), reviewer: roleModelSchema.default(null) })
      .strict()
      .default({ vision: null, author: null, reviewer: null }),
    cad: cadEndpointSchema.default({ host: '127.0.0.1', port: 8080, allowRemote: false }),
    allowedRoots: z.array(z.string().min(1).max(1000)).max(50).default([]),
    limits: limitsSchema.default(() => limitsSchema.parse({})),
  })
  .strict()
  .superRefine((settings, ctx) => {
    const ids = settings.providers.map((p) => p.id);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) ctx.addIssue({ code: 'custom', path: ['providers', index, 'id'], message: `duplicate provider id "${id}"` });
    });
  });
export type SettingsFile = z.output<typeof settingsFileSchema>;

export function defaultSettings(): SettingsFile {
  return settingsFileSchema.parse({ version: SETTINGS_VERSION });
}

import { cadgenEn, cadgenZh } from './catalog/cadgen';
import { generationEn, generationZh } from './catalog/generation';
import { shellEn, shellZh } from './catalog/shell';
import { reviewEn, reviewZh } from './catalog/review';
import { reviewSetEn, reviewSetZh } from './catalog/reviewSet';
import { systemCheckEn, systemCheckZh } from './catalog/systemCheck';
import { visionEn, visionZh } from './catalog/vision';

/**
 * The message catalog, composed of one file per area under ./catalog. `en` defines the keys;
 * `zh-CN` must translate every one (type-checked). Every user-visible string in the renderer
 * comes from here. `{name}` marks a parameter. A slice adds catalog/<slice>.ts (keys prefixed
 * with the slice name) and one spread line in each table below.
 */
export const en = {
  ...shellEn,
  ...cadgenEn,
  ...generationEn,
  ...reviewEn,
  ...reviewSetEn,
  ...visionEn,
  ...systemCheckEn,
} as const;

export type MessageKey = keyof typeof en;

export const zhCN: Record<MessageKey, string> = {
  ...shellZh,
  ...cadgenZh,
  ...generationZh,
  ...reviewZh,
  ...reviewSetZh,
  ...visionZh,
  ...systemCheckZh,
};

export type Locale = 'zh-CN' | 'en';

export const catalogs: Record<Locale, Record<MessageKey, string>> = { en, 'zh-CN': zhCN };

/** Formats a message; unknown parameters stay visible as `{name}` so a bug is noticed. */
export function formatMessage(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  return catalogs[locale][key].replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** zh-CN when the OS/browser locale is Chinese, English otherwise. */
export function defaultLocale(systemLocale: string): Locale {
  return /^zh\b/i.test(systemLocale) ? 'zh-CN' : 'en';
}

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

/** `{count, plural, one {# frame} other {# frames}}`: one level, `#` is the number, `=N` exact forms allowed. */
const PLURAL = /\{(\w+), plural,((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=?\w+)\s*\{([^{}]*)\}/g;

/**
 * Formats a message in the locale's words: plural forms picked by Intl.PluralRules of the locale
 * (Chinese has one form, English "one"/"other"), then `{name}` parameters, numbers written as the
 * locale writes them. Unknown parameters stay visible as `{name}` so a bug is noticed.
 */
export function formatMessage(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const rules = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale, { useGrouping: false });
  const text = catalogs[locale][key].replace(PLURAL, (match, name: string, body: string) => {
    const value = params[name];
    if (typeof value !== 'number') return match;
    const forms = new Map([...body.matchAll(PLURAL_FORM)].map((m) => [m[1]!, m[2]!]));
    const form = forms.get(`=${value}`) ?? forms.get(rules.select(value)) ?? forms.get('other') ?? match;
    return form.replace(/#/g, numbers.format(value));
  });
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

/** A date and time as the UI locale writes it (zh-CN: 2026/12/4 15:32; en: 12/4/26, 3:32 PM). */
export function formatDateTime(locale: Locale, iso: string | number): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

/** A time of day as the UI locale writes it (zh-CN: 15:32:29; en: 3:32:29 PM). */
export function formatTime(locale: Locale, iso: string | number): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }).format(new Date(iso));
}

/** zh-CN when the OS/browser locale is Chinese, English otherwise. */
export function defaultLocale(systemLocale: string): Locale {
  return /^zh\b/i.test(systemLocale) ? 'zh-CN' : 'en';
}

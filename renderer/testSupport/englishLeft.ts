import { en, zhCN } from '../i18n/messages';

/** Runs of three or more ASCII letters: the words a fallback to English would leave. */
export const asciiWords = (text: string): string[] => text.match(/[A-Za-z]{3,}/g) ?? [];
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
/** Messages rightly without a Chinese character (names, units, formats); any other such zh-CN message is untranslated. */
export const SAME_IN_BOTH_LANGUAGES: ReadonlySet<string> = new Set([
  'app.title',
  'status.version',
  'settings.language.en',
  'settings.protocol.openai-responses',
  'settings.protocol.anthropic-messages',
  'cadgen.open.source',
  'cadgen.viewer.measurePoint',
  'cadgen.viewer.diameter',
  'gen.download.requirements',
  'gen.usage.kb',
  'review.source.kind.cad',
  'review.drawing.version',
  'review.finding.llm',
  'systemCheck.item.node',
]);
/** zh-CN messages with no Chinese in them that are not names: English left in the Chinese catalog. */
export const untranslatedKeys = (): string[] => Object.entries(zhCN).filter(([key, text]) => !CJK.test(text) && !SAME_IN_BOTH_LANGUAGES.has(key)).map(([key]) => key);
/** ASCII words a Chinese screen may show: those of translated messages and of names; an untranslated message lends none. */
const chineseCatalogWords = new Set(
  Object.entries(zhCN)
    .filter(([key, text]) => CJK.test(text) || SAME_IN_BOTH_LANGUAGES.has(key))
    .flatMap(([, text]) => asciiWords(text)),
);
/** Words of the English catalog that no Chinese message uses (product names such as AutoCAD are in both). */
const englishOnlyWords = new Set(Object.values(en).flatMap(asciiWords).filter((w) => !chineseCatalogWords.has(w)));
const CATALOG_KEY = /\b(?:app|review|reviewSet|gen|cadgen|vision|settings|systemCheck|nav|status|banner|error)\.[A-Za-z][\w.-]+/g;

/**
 * Test support: what of a screen meant to be in 简体中文 is still English from the catalog, and
 * raw catalog keys. `data` are strings the user's own data puts there (file names, paths), removed first.
 * `strict`: any ASCII word no Chinese message uses counts too (error codes aside), so English from elsewhere (the host's
 * own wording, a hard-coded label) is caught, not only the catalog's.
 */
export function englishLeft(text: string, data: string[] = [], { strict = false }: { strict?: boolean } = {}): string[] {
  let rest = text;
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join(' ');
  // Typed error codes and environment variable names (LLM_AUTH, FFMPEG_PATH) are shown as they are, in every language.
  if (strict) rest = rest.replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, ' ');
  const english = (w: string) => (strict ? !chineseCatalogWords.has(w) : englishOnlyWords.has(w));
  return [...new Set([...asciiWords(rest).filter(english), ...(rest.match(CATALOG_KEY) ?? [])])];
}

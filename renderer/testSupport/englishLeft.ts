import { en, zhCN } from '../i18n/messages';

/** Runs of three or more ASCII letters: the words a fallback to English would leave. */
export const asciiWords = (text: string): string[] => text.match(/[A-Za-z]{3,}/g) ?? [];
const chineseCatalogWords = new Set(Object.values(zhCN).flatMap(asciiWords));
/** Words of the English catalog that no Chinese message uses (product names such as AutoCAD are in both). */
const englishOnlyWords = new Set(Object.values(en).flatMap(asciiWords).filter((w) => !chineseCatalogWords.has(w)));
const CATALOG_KEY = /\b(?:app|review|reviewSet|gen|cadgen|vision|settings|systemCheck|nav|status|banner|error)\.[A-Za-z][\w.-]+/g;

/**
 * Test support: what of a screen meant to be in 简体中文 is still English from the catalog, and
 * raw catalog keys. `data` are strings the user's own data puts there (file names, paths), removed first.
 * `strict`: any ASCII word no Chinese message uses counts too, so English from elsewhere (the host's
 * own wording, a hard-coded label) is caught, not only the catalog's.
 */
export function englishLeft(text: string, data: string[] = [], { strict = false }: { strict?: boolean } = {}): string[] {
  let rest = text;
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join(' ');
  const english = (w: string) => (strict ? !chineseCatalogWords.has(w) : englishOnlyWords.has(w));
  return [...new Set([...asciiWords(rest).filter(english), ...(rest.match(CATALOG_KEY) ?? [])])];
}

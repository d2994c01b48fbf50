import type { RuleParams } from '../checklist';
import type { TextItem } from '../evidence';
import { boxOfPoints } from '../geometry';
import { draftFor, say, type FrameRule } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
/** "gbcbig.shx" → "gbcbig", "SimFang.TTF" → "simfang". */
const fontKey = (font: string): string => font.trim().toLowerCase().replace(/\.(shx|ttf|ttc|otf)$/, '');

function allowed(text: TextItem, cjk: boolean, latinFonts: Set<string>, cjkFonts: Set<string>): boolean | undefined {
  // An inline \f switch names "font[,bigfont]" and replaces the style's fonts.
  const own = text.inlineFont ? text.inlineFont.split(',') : [text.font, text.bigFont];
  const fonts = [own[0], cjk ? own[1] : undefined].filter((f): f is string => f !== undefined && f.trim() !== '').map(fontKey);
  if (fonts.length === 0) return undefined;
  const list = cjk ? cjkFonts : latinFonts;
  // A CJK text needs a CJK font among its fonts; a Latin text's main font must be allowed (a 长仿宋 TrueType is too).
  return cjk ? fonts.some((f) => list.has(f)) : list.has(fonts[0]!) || cjkFonts.has(fonts[0]!);
}

/**
 * TXT-002 (GB/T 14691): text styles in 长仿宋 fonts (gbenor/gbeitc + gbcbig, or the configured
 * list). Heights, including the 3.5 mm minimum for Chinese characters, are TXT-001's. Fonts are
 * only judged on sheets with Chinese text: an ISO drawing lettered in English is not held to GB
 * fonts. One finding per text style (or inline font), so a wrong style is one finding.
 */
export const letteringRule: FrameRule<ParamsOf<'lettering'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  if (!evidence.texts.some((t) => CJK.test(t.text))) return [];
  const latinFonts = new Set(params.latinFonts.map(fontKey));
  const cjkFonts = new Set(params.cjkFonts.map(fontKey));
  const byStyle = new Map<string, TextItem[]>();
  for (const t of evidence.texts) {
    if (t.text.trim() === '' || allowed(t, CJK.test(t.text), latinFonts, cjkFonts) !== false) continue;
    const key = t.inlineFont ? `\\f${t.inlineFont}` : (t.style ?? '?');
    byStyle.set(key, [...(byStyle.get(key) ?? []), t]);
  }
  return [...byStyle].map(([style, texts]) => {
    const t = texts[0]!;
    const fonts = (t.inlineFont ? t.inlineFont.split(',') : [t.font, t.bigFont]).filter((f) => f && f.trim() !== '').join(' + ');
    return draftFor(item, frame.id, {
      message: say(
        locale,
        `文字样式“${style}”使用字体 ${fonts}（${texts.length} 处），不是 GB/T 14691 长仿宋体（${params.latinFonts.join('/')} + ${params.cjkFonts.join('/')}）。`,
        `Text style "${style}" uses ${fonts} (${texts.length} texts), not a GB/T 14691 long-FangSong font (${params.latinFonts.join('/')} + ${params.cjkFonts.join('/')}).`,
      ),
      evidenceRefs: ['tool:get_texts', ...texts.slice(0, 50).map((x) => `entity:${x.handle}`)],
      location: texts.length === 1 ? { kind: 'point', point: t.position } : { kind: 'bbox', bbox: boxOfPoints(texts.map((x) => x.position))! },
      handles: texts.map((x) => x.handle),
      discriminator: `font:${style}`,
      annotationText: say(annotationLocale, `字体 ${fonts} 非长仿宋`, `Font ${fonts} is not long-FangSong`),
    });
  });
};

import { textCorners } from './bounds';
import { emptyBox, extendBox } from './geometry';
import type { Box } from './model';
import type { Primitive } from './world';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

export type TitleField = 'title' | 'drawingNo' | 'scale' | 'designer' | 'checker' | 'date' | 'revision';

export interface TitleBlockFields {
  /** Field → value text (null when the label exists but its cell is empty, absent when not found). */
  fields: Partial<Record<TitleField, string | null>>;
  /** How each field was found: the label text that named it, or "pattern" when no label exists. */
  sources: Partial<Record<TitleField, string>>;
}

/** Chinese and English labels, matched on the whole text without a trailing colon. */
const LABELS: [TitleField, RegExp][] = [
  ['drawingNo', /^(图号|图纸编号|drawing|drawing\s*no\.?|drawing\s*number|dwg\.?\s*no\.?|article\s*no\.?(\/reference)?|document\s*no\.?|project\s*no\.?)$/i],
  ['title', /^(图名|图纸名称|名称|title\b.*|drawing\s*title)$/i],
  ['scale', /^(比例|scale)$/i],
  ['designer', /^(设计|设计人|制图|绘图|drawn(\s*by)?|designed(\s*by)?|drawer)$/i],
  ['checker', /^(审核|校对|审定|checked(\s*by)?|approved(\s*by)?)$/i],
  ['date', /^(日期|date)$/i],
  ['revision', /^(版本|版次|修改|rev\.?|rev\.?\s*no\.?|revision|version|edition)$/i],
];

/** Value shapes used when a title block has values but no labels (e.g. QCAD's A3 border). */
const VALUE_PATTERNS: [TitleField, RegExp][] = [
  ['date', /^(\d{4}\s*[-/.年]\s*\d{1,2}(\s*[-/.月]\s*\d{1,2}\s*日?)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{4})$/],
  ['revision', /^(rev\.?|revision|版本)\s*[\w.]+$/i],
  ['scale', /^\d+(\.\d+)?\s*[:：]\s*\d+(\.\d+)?$/],
  ['drawingNo', /^(?=.*\d)[A-Z0-9][A-Z0-9\-/._]{5,}$/i],
  ['designer', /^([A-Z]\.\s?[A-Z][a-z]+|[\u4e00-\u9fff]{2,3})$/],
];

/** Other title-block labels: never taken as a value of a neighbouring field. */
const OTHER_LABELS = /^(sheet|edition|file\s*name|quantity|item\s*ref|signature|revision note|material|weight|approved.*|共.*张|第.*张|材料|重量|数量|件号|序号|备注|单位|工程名称|建设单位|设计单位)$/i;

function normalise(text: string): string {
  return text.trim().replace(/[:：]\s*$/, '').replace(/\s+/g, ' ');
}

function labelOf(text: string): TitleField | undefined {
  const n = normalise(text);
  return LABELS.find(([, re]) => re.test(n))?.[0];
}

function boxOf(t: TextPrimitive): Box {
  const box = emptyBox();
  for (const p of textCorners(t)) extendBox(box, p);
  return box;
}

/**
 * Reads title-block fields from the texts inside a title-block region. For each label the value
 * is the nearest non-label text to its right on the same row, else the nearest below it within a
 * few text heights. Fields without labels fall back to value patterns (date, revision, scale,
 * drawing number, a person's name) and the tallest remaining text as the title.
 */
export function readTitleBlock(texts: TextPrimitive[]): TitleBlockFields {
  const result: TitleBlockFields = { fields: {}, sources: {} };
  const entries = texts.map((t) => ({ t, box: boxOf(t), label: labelOf(t.text) }));
  const values = entries.filter((e) => !e.label && normalise(e.t.text).length > 0 && !OTHER_LABELS.test(normalise(e.t.text)));
  const used = new Set<(typeof values)[number]>();
  for (const label of entries) {
    if (!label.label || typeof result.fields[label.label] === 'string') continue;
    const h = Math.max(label.t.height, 1e-9);
    const midY = (label.box.minY + label.box.maxY) / 2;
    let best: { entry: (typeof values)[number]; distance: number } | undefined;
    for (const v of values) {
      const vMidY = (v.box.minY + v.box.maxY) / 2;
      const right = v.box.minX >= label.box.maxX - h * 0.5 && Math.abs(vMidY - midY) <= Math.max(h, v.t.height) * 0.8;
      const below = v.box.maxY <= label.box.minY + h * 0.2 && label.box.minY - v.box.maxY <= h * 4 && v.box.minX >= label.box.minX - h * 2 && v.box.minX <= label.box.maxX + h * 6;
      if (!right && !below) continue;
      const distance = right ? v.box.minX - label.box.maxX : (label.box.minY - v.box.maxY) * 2 + Math.abs(v.box.minX - label.box.minX);
      if (distance <= h * 15 && (!best || distance < best.distance)) best = { entry: v, distance };
    }
    result.sources[label.label] = normalise(label.t.text);
    result.fields[label.label] = best ? normalise(best.entry.t.text) : null;
    if (best) used.add(best.entry);
  }
  const free = (): typeof values => values.filter((v) => !used.has(v));
  const assign = (field: TitleField, entry: (typeof values)[number] | undefined): void => {
    if (!entry) return;
    result.fields[field] = normalise(entry.t.text);
    result.sources[field] = 'pattern';
    used.add(entry);
  };
  // The title goes before the name pattern: a three-character Chinese title looks like a name.
  for (const [field, re] of VALUE_PATTERNS) {
    if (field === 'designer') {
      if (!result.sources.title) assign('title', tallest(free().filter((v) => /\p{L}/u.test(v.t.text))));
    }
    if (!result.sources[field]) assign(field, free().find((v) => re.test(normalise(v.t.text))));
  }
  return result;
}

function tallest<T extends { t: TextPrimitive }>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((best, item) => (!best || item.t.height > best.t.height ? item : best), undefined);
}

import { textCorners } from './bounds';
import { emptyBox, extendBox } from './geometry';
import type { Box } from './model';
import type { Primitive } from './world';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;

/** Normalised title-block keys; the last six are the GB/T 10609.1 fields beyond the ISO 7200 core. */
export const TITLE_FIELDS = ['title', 'drawingNo', 'scale', 'designer', 'checker', 'date', 'revision', 'material', 'weight', 'sheetNo', 'sheetCount', 'organisation', 'approver'] as const;
export type TitleField = (typeof TITLE_FIELDS)[number];

export interface TitleBlockFields {
  /** Field → value text (null when the label exists but its cell is empty, absent when not found). */
  fields: Partial<Record<TitleField, string | null>>;
  /** How each field was found: the label text that named it, "attribute:<TAG>", "row" (共 N 张 第 M 张) or "pattern". */
  sources: Partial<Record<TitleField, string>>;
  /** Extent of the labels and values read (undefined when nothing was read). */
  box?: Box;
}

/** Chinese and English labels, matched on the whole text without a trailing colon. */
const LABELS: [TitleField, RegExp][] = [
  ['drawingNo', /^(图号|图样代号|代号|图纸编号|drawing|drawing\s*no\.?|drawing\s*number|dwg\.?\s*no\.?|article\s*no\.?(\/reference)?|document\s*no\.?|project\s*no\.?)$/i],
  ['title', /^(图名|图样名称|图纸名称|名称|title\b.*|drawing\s*title)$/i],
  ['scale', /^(比例|scale)$/i],
  ['designer', /^(设计|设计人|制图|绘图|drawn(\s*by)?|designed(\s*by)?|drawer)$/i],
  ['checker', /^(审核|校对|校核|审定|checked(\s*by)?)$/i],
  ['approver', /^(批准|approved(\s*by)?(\s*-\s*date)?)$/i],
  ['date', /^(日期|date)$/i],
  ['revision', /^(版本|版次|修改|rev\.?|rev\.?\s*no\.?|revision|version|edition)$/i],
  ['material', /^(材料|材料标记|材质|material)$/i],
  ['weight', /^(重量|质量|weight|mass)$/i],
  ['organisation', /^(单位|单位名称|设计单位|company|organi[sz]ation)$/i],
];

/** Attribute tags of title-block blocks (compared without spaces, "_", "-", case) → field. */
const TAGS: [TitleField, RegExp][] = [
  ['drawingNo', /^(图号|tuhao|dwgno|drawingno|drawingnumber|docno|documentno|number|partno)$/],
  ['title', /^(图名|名称|tuming|title|name|drawingname|drawingtitle)$/],
  ['scale', /^(比例|bili|scale)$/],
  ['date', /^(日期|riqi|date)$/],
  ['revision', /^(版本|rev|revision|version|edition)$/],
  ['designer', /^(设计|designer|design|drawn|drawnby|designedby|author)$/],
  ['checker', /^(审核|checker|checked|checkedby)$/],
  ['approver', /^(批准|approver|approved|approvedby)$/],
  ['material', /^(材料|cailiao|material)$/],
  ['weight', /^(重量|weight|mass)$/],
  ['sheetNo', /^(第张|sheet|sheetno)$/],
  ['sheetCount', /^(共张|sheets|sheetcount|totalsheets)$/],
  ['organisation', /^(单位|company|organisation|organization)$/],
];

const DATE_SHAPE = /^(\d{4}\s*[-/.年]\s*\d{1,2}(\s*[-/.月]\s*\d{1,2}\s*日?)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/;
/** A ratio with a colon ("1:50", "1 : 75", "1：100"): a scale even where no label says so. */
const SCALE_SHAPE = /^\d+(\.\d+)?\s*[:：]\s*\d+(\.\d+)?$/;
/** A scale cell's value may also be written with a slash ("1/75"); unlabelled, "18/8" is a steel grade, not a scale. */
const LABELLED_SCALE_SHAPE = /^\d+(\.\d+)?\s*[:：/]\s*\d+(\.\d+)?$/;

/**
 * Texts that are plotting or CAD artefacts, never title-block values: the captions CAD programs
 * give viewports and layouts ("Rectangular Viewport", "Layout1", "Model"), and anything on the
 * non-plotting Defpoints layer (it does not appear on the sheet).
 */
const ARTEFACT_TEXT = /^(((rectangular|polygonal|object|floating)\s+)?viewport(\s*\d+)?|视口(\s*\d+)?|(layout|布局)\s*\d*|model|模型)$/i;

export function isTitleBlockArtefact(t: TextPrimitive): boolean {
  return t.layer.toUpperCase() === 'DEFPOINTS' || ARTEFACT_TEXT.test(normalise(t.text));
}

/**
 * A label and its value in one text ("Scale: 1: 75", "比例 1:75", "图号：A-01"): the field and the
 * value when the text starts with a label followed by a colon or space and a value that fits it.
 */
export function inlineLabelValue(text: string): { field: TitleField; value: string } | undefined {
  const n = text.trim().replace(/\s+/g, ' ');
  const match = /^([^:：\s]+(?:\s+(?:no\.?|number|by|title))?)\s*(?:[:：]\s*|\s+)(\S.*)$/i.exec(n);
  if (!match) return undefined;
  const field = labelOf(match[1]!);
  const value = match[2]!.trim();
  if (!field || value === '' || labelOf(value) !== undefined || !fits(field, value)) return undefined;
  // Only a value shaped like its field is taken from inside a sentence (a colon says it is a pair).
  if (!/[:：]/.test(n.slice(match[1]!.length, n.length - value.length)) && field !== 'scale') return undefined;
  return { field, value };
}

/** Whether a text can be the value of a field: a date is no drawing number or title, a scale looks like one. */
function fits(field: TitleField, value: string): boolean {
  switch (field) {
    case 'date':
      return /\d/.test(value);
    case 'scale':
      return LABELLED_SCALE_SHAPE.test(value);
    case 'drawingNo':
    case 'title':
    case 'material':
      return !DATE_SHAPE.test(value) && !SCALE_SHAPE.test(value);
    default:
      return true;
  }
}

/** Value shapes used when a title block has values but no labels (e.g. QCAD's A3 border). */
const VALUE_PATTERNS: [TitleField, RegExp][] = [
  ['date', DATE_SHAPE],
  ['revision', /^(rev\.?|revision|版本)\s*[\w.]+$/i],
  ['scale', SCALE_SHAPE],
  ['drawingNo', /^(?=.*\d)[A-Z0-9][A-Z0-9\-/._]{5,}$/i],
  ['designer', /^([A-Z]\.\s?[A-Z][a-z]+|[\u4e00-\u9fff]{2,3})$/],
];

/** Other title-block labels: never taken as a value of a neighbouring field. */
const OTHER_LABELS = /^(sheet|edition|file\s*name|filename|quantity|item\s*ref|signature|revision note|共.*张|第.*张|共|张|第|数量|件号|序号|备注|工程名称|建设单位|标记|处数|分区|更改文件号|签名|年月日|阶段标记)$/i;

function normalise(text: string): string {
  return text.trim().replace(/[:：]\s*$/, '').replace(/\s+/g, ' ');
}

export function labelOf(text: string): TitleField | undefined {
  const n = normalise(text);
  return LABELS.find(([, re]) => re.test(n))?.[0];
}

/** Axis-aligned extent of a text primitive (rotation and alignment applied). */
export function textBox(t: TextPrimitive): Box {
  const box = emptyBox();
  for (const p of textCorners(t)) extendBox(box, p);
  return box;
}

type Entry = { t: TextPrimitive; box: Box; label: TitleField | undefined };

function tagField(tag: string | undefined): TitleField | undefined {
  if (!tag) return undefined;
  const key = tag.toLowerCase().replace(/[\s_\-.:：]/g, '');
  return TAGS.find(([, re]) => re.test(key))?.[0];
}

/**
 * Reads title-block fields from the texts inside a title-block region. Attributes whose tag names
 * a field come first (the block author said what they are); then "共 N 张 第 M 张" / "Sheet M of
 * N" read along a row (GB title blocks split it over several cells); then for each label the
 * value is the nearest non-label text to its right on the same row, else the nearest below it
 * within a few text heights, and only a text that fits the field (a date is no drawing number).
 * Fields without labels fall back to value patterns (date, revision, scale, drawing number, a
 * person's name) and the tallest remaining text as the title.
 */
export function readTitleBlock(texts: TextPrimitive[]): TitleBlockFields {
  const result: TitleBlockFields = { fields: {}, sources: {} };
  const entries: Entry[] = texts.filter((t) => !isTitleBlockArtefact(t)).map((t) => ({ t, box: textBox(t), label: t.tag ? undefined : labelOf(t.text) }));
  const read: Entry[] = [];
  const used = new Set<Entry>();
  for (const e of entries) {
    const field = tagField(e.t.tag);
    if (!field || typeof result.fields[field] === 'string') continue;
    const value = normalise(e.t.text);
    result.fields[field] = value === '' ? null : value;
    result.sources[field] = `attribute:${e.t.tag}`;
    used.add(e);
    read.push(e);
  }
  // A label and its value in one text ("Scale: 1: 75") after attributes, before label/value pairs.
  for (const e of entries) {
    if (e.t.tag || e.label) continue;
    const inline = inlineLabelValue(e.t.text);
    if (!inline || result.sources[inline.field]) continue;
    result.fields[inline.field] = inline.value;
    result.sources[inline.field] = normalise(e.t.text);
    used.add(e);
    read.push(e);
  }
  readSheetNumbering(entries, result, used, read);
  const values = entries.filter((e) => !e.label && !used.has(e) && normalise(e.t.text).length > 0 && !OTHER_LABELS.test(normalise(e.t.text)));
  for (const label of entries) {
    if (!label.label || typeof result.fields[label.label] === 'string') continue;
    const field = label.label;
    const h = Math.max(label.t.height, 1e-9);
    const midY = (label.box.minY + label.box.maxY) / 2;
    let best: { entry: Entry; distance: number } | undefined;
    for (const v of values) {
      if (used.has(v) || !fits(field, normalise(v.t.text))) continue;
      const vMidY = (v.box.minY + v.box.maxY) / 2;
      const right = v.box.minX >= label.box.maxX - h * 0.5 && Math.abs(vMidY - midY) <= Math.max(h, v.t.height) * 0.8;
      const below = v.box.maxY <= label.box.minY + h * 0.2 && label.box.minY - v.box.maxY <= h * 4 && v.box.minX >= label.box.minX - h * 2 && v.box.minX <= label.box.maxX + h * 6;
      // A text below belongs to its own row's label when it has one (an empty 设计 cell must not take 审核's value).
      if (!right && (!below || labelledOnItsRow(v, entries, label))) continue;
      const distance = right ? v.box.minX - label.box.maxX : (label.box.minY - v.box.maxY) * 2 + Math.abs(v.box.minX - label.box.minX);
      if (distance <= h * 15 && (!best || distance < best.distance)) best = { entry: v, distance };
    }
    result.sources[field] = normalise(label.t.text);
    result.fields[field] = best ? normalise(best.entry.t.text) : null;
    read.push(label);
    if (best) {
      used.add(best.entry);
      read.push(best.entry);
    }
  }
  const free = (): Entry[] => values.filter((v) => !used.has(v));
  const assign = (field: TitleField, entry: Entry | undefined): void => {
    if (!entry) return;
    result.fields[field] = normalise(entry.t.text);
    result.sources[field] = 'pattern';
    used.add(entry);
    read.push(entry);
  };
  // The title goes before the name pattern: a three-character Chinese title looks like a name.
  for (const [field, re] of VALUE_PATTERNS) {
    if (field === 'designer') {
      if (!result.sources.title) assign('title', tallest(free().filter((v) => /\p{L}/u.test(v.t.text) && fits('title', normalise(v.t.text)))));
    }
    if (!result.sources[field]) assign(field, free().find((v) => re.test(normalise(v.t.text))));
  }
  if (read.length > 0) {
    const box = emptyBox();
    for (const e of read) {
      extendBox(box, { x: e.box.minX, y: e.box.minY });
      extendBox(box, { x: e.box.maxX, y: e.box.maxY });
    }
    result.box = box;
  }
  return result;
}

/** Whether another label sits just left of `value` on the value's own row (so the value is that label's). */
function labelledOnItsRow(value: Entry, entries: readonly Entry[], except: Entry): boolean {
  const mid = (value.box.minY + value.box.maxY) / 2;
  return entries.some((e) => {
    if (e === except || !e.label) return false;
    const h = Math.max(e.t.height, value.t.height, 1e-9);
    return Math.abs((e.box.minY + e.box.maxY) / 2 - mid) <= h * 0.8 && e.box.maxX <= value.box.minX + h * 0.5 && value.box.minX - e.box.maxX <= h * 15;
  });
}

const SHEET_COUNT = /共\s*(\d+)\s*张/;
const SHEET_NO = /第\s*(\d+)\s*张/;
const SHEET_OF = /sheet\s*(\d+)\s*(?:of|\/)\s*(\d+)/i;

/** 共 N 张 / 第 M 张 / Sheet M of N, read on rows of texts joined left to right. */
function readSheetNumbering(entries: Entry[], result: TitleBlockFields, used: Set<Entry>, read: Entry[]): void {
  const rows: Entry[][] = [];
  for (const e of [...entries].sort((a, b) => a.box.minX - b.box.minX)) {
    const mid = (e.box.minY + e.box.maxY) / 2;
    const row = rows.find((r) => Math.abs((r[0]!.box.minY + r[0]!.box.maxY) / 2 - mid) <= Math.max(r[0]!.t.height, e.t.height) * 0.6);
    if (row) row.push(e);
    else rows.push([e]);
  }
  for (const row of rows) {
    const line = row.map((e) => normalise(e.t.text)).join(' ');
    const count = SHEET_COUNT.exec(line);
    const no = SHEET_NO.exec(line);
    const of = SHEET_OF.exec(line);
    const set = (field: 'sheetNo' | 'sheetCount', value: string | undefined): void => {
      if (value === undefined || result.sources[field]) return;
      result.fields[field] = value;
      result.sources[field] = 'row';
    };
    set('sheetCount', count?.[1] ?? of?.[2]);
    set('sheetNo', no?.[1] ?? of?.[1]);
    if (count || no || of) {
      for (const e of row) if (/^(\d+|共.*|第.*|.*张|sheet.*|of)$/i.test(normalise(e.t.text))) {
        used.add(e);
        read.push(e);
      }
    }
  }
}

function tallest<T extends { t: TextPrimitive }>(items: T[]): T | undefined {
  return items.reduce<T | undefined>((best, item) => (!best || item.t.height > best.t.height ? item : best), undefined);
}

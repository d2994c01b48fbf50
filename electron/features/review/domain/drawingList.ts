import type { Frame } from './frame';
import { pointInBox, type BBox, type Point } from './geometry';

/** What the list reader needs of a text (evidence TextItem has it). */
interface TextItem {
  text: string;
  position: Point;
  height: number;
}

/** One row of a 图纸目录 (drawing list): the sheet number it lists and the title it gives. */
export interface DrawingListRow {
  drawingNo: string;
  title: string;
  position: Point;
}

/** A frame that is a drawing list, the rows read from its table, and what they disagree with. */
export interface DrawingListEvidence {
  frameId: string;
  rows: DrawingListRow[];
  issues: DrawingListIssue[];
}

/** What the list says versus the sheets present. */
export type DrawingListIssue =
  | { kind: 'missing'; drawingNo: string; listedTitle: string; at: Point }
  | { kind: 'extra'; drawingNo: string; title: string | undefined; frameId: string; at: BBox }
  | { kind: 'title'; drawingNo: string; listedTitle: string; sheetTitle: string; frameId: string; at: Point };

const LIST_TITLE = /^(图纸目录|图纸目錄|目录|图纸清单|drawing\s*(list|index|register|schedule)|sheet\s*(index|list))$/i;
const NUMBER_HEADERS = /^(图号|图纸编号|图纸代号|编号|drawing\s*no\.?|dwg\.?\s*no\.?|sheet\s*no\.?|number)$/i;
const TITLE_HEADERS = /^(图名|图纸名称|名称|title|drawing\s*title|sheet\s*title|description)$/i;

/** Compares numbers and titles as written by hand: full-width forms, spaces and case do not count. */
export const normaliseListKey = (text: string): string => text.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
const plain = (text: string): string => text.normalize('NFKC').trim().replace(/[:：]$/, '').trim();

/** Whether a frame is a drawing list: its title says so, or a text in it does (the table's heading). */
export function isDrawingListFrame(frame: Frame, texts: readonly TextItem[]): boolean {
  if (frame.titleBlock.title && LIST_TITLE.test(plain(frame.titleBlock.title))) return true;
  return texts.some((t) => LIST_TITLE.test(plain(t.text)));
}

const sameRow = (a: TextItem, b: TextItem): boolean => Math.abs(a.position.y - b.position.y) <= Math.max(a.height, b.height) * 0.8;

/**
 * Reads the rows of a drawing-list table: a header row with a number column (图号, Drawing No.)
 * and a title column (图名, Title); each row below it with a text in the number column is a
 * listed sheet, its title the texts in the title column. A text belongs to the column whose
 * header starts at or left of it. Texts in `exclude` (the title block) are not the table. Of
 * several header candidates the one that reads the most rows wins.
 */
export function readDrawingList(texts: readonly TextItem[], exclude?: BBox): DrawingListRow[] {
  const table = texts.filter((t) => t.text.trim() !== '' && !(exclude && pointInBox(t.position, exclude)));
  let best: DrawingListRow[] = [];
  for (const numberHead of table.filter((t) => NUMBER_HEADERS.test(plain(t.text)))) {
    const titleHead = table.find((t) => t !== numberHead && TITLE_HEADERS.test(plain(t.text)) && sameRow(t, numberHead));
    if (!titleHead) continue;
    const headers = table.filter((t) => sameRow(t, numberHead)).sort((a, b) => a.position.x - b.position.x);
    const columnOf = (t: TextItem): TextItem | undefined => [...headers].reverse().find((h) => h.position.x <= t.position.x + Math.max(h.height, t.height));
    const below = table.filter((t) => t.position.y < numberHead.position.y - numberHead.height * 0.5 && !headers.includes(t));
    const rows: TextItem[][] = [];
    for (const t of [...below].sort((a, b) => b.position.y - a.position.y)) {
      const row = rows.find((r) => sameRow(r[0]!, t));
      if (row) row.push(t);
      else rows.push([t]);
    }
    const read = rows.flatMap((row) => {
      const inColumn = (head: TextItem): TextItem[] => row.filter((t) => columnOf(t) === head).sort((a, b) => a.position.x - b.position.x);
      const no = inColumn(numberHead).map((t) => plain(t.text)).join('');
      if (no === '') return [];
      return [{ drawingNo: no, title: inColumn(titleHead).map((t) => plain(t.text)).join(' '), position: inColumn(numberHead)[0]!.position }];
    });
    if (read.length > best.length) best = read;
  }
  return best;
}

/**
 * The drawing list against the sheets present (detected frames other than the list itself):
 * a listed number no sheet carries (missing), a sheet whose number is not listed (extra), and a
 * listed number whose sheet is titled differently (title). Sheets without a number are not judged.
 */
export function drawingListIssues(list: { frameId: string; rows: readonly DrawingListRow[] }, frames: readonly Frame[]): DrawingListIssue[] {
  const sheets = frames.filter((f) => f.origin === 'detected' && f.id !== list.frameId);
  const byNumber = new Map<string, Frame>();
  for (const f of sheets) if (f.titleBlock.drawingNo) byNumber.set(normaliseListKey(f.titleBlock.drawingNo), f);
  const listFrame = frames.find((f) => f.id === list.frameId);
  const listed = new Set(list.rows.map((r) => normaliseListKey(r.drawingNo)));
  const issues: DrawingListIssue[] = [];
  for (const row of list.rows) {
    const key = normaliseListKey(row.drawingNo);
    const sheet = byNumber.get(key);
    // The list may list itself.
    if (!sheet && listFrame?.titleBlock.drawingNo && normaliseListKey(listFrame.titleBlock.drawingNo) === key) continue;
    if (!sheet) issues.push({ kind: 'missing', drawingNo: row.drawingNo, listedTitle: row.title, at: row.position });
    else if (row.title && sheet.titleBlock.title && normaliseListKey(row.title) !== normaliseListKey(sheet.titleBlock.title)) {
      issues.push({ kind: 'title', drawingNo: row.drawingNo, listedTitle: row.title, sheetTitle: sheet.titleBlock.title, frameId: sheet.id, at: row.position });
    }
  }
  for (const sheet of sheets) {
    const no = sheet.titleBlock.drawingNo;
    if (no && !listed.has(normaliseListKey(no))) issues.push({ kind: 'extra', drawingNo: no, title: sheet.titleBlock.title, frameId: sheet.id, at: sheet.bbox });
  }
  return issues;
}

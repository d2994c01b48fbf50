/**
 * Cross-sheet checks of drawing numbers (图号) and sheet numbering (共 N 张 第 M 张), shared by the
 * drawing-level rule (frames of one file) and the set report (sheets of many files). Pure.
 */

/** One sheet as the cross-sheet checks see it. */
export interface SheetRef {
  /** Where the sheet is: "file.dxf#F1" in a set, the frame id in one drawing. */
  key: string;
  drawingNo?: string | undefined;
  sheetNo?: string | undefined;
  sheetCount?: string | undefined;
}

export type NumberingIssue =
  | { kind: 'duplicate_drawing_no'; drawingNo: string; keys: string[] }
  | { kind: 'count_mismatch'; counts: string[]; keys: string[] }
  | { kind: 'sheet_beyond_count'; sheetNo: number; sheetCount: number; keys: string[] }
  | { kind: 'duplicate_sheet_no'; sheetNo: number; keys: string[] }
  | { kind: 'missing_sheets'; missing: number[]; sheetCount: number; keys: string[] };

const normalise = (value: string): string => value.trim().replace(/\s+/g, '').toUpperCase();
const int = (value: string | undefined): number | undefined => (value !== undefined && /^\d{1,4}$/.test(value.trim()) ? Number(value) : undefined);

/**
 * Duplicate 图号; sheets whose 共 N 张 disagree; 第 M 张 beyond N or twice; and, when `complete`
 * (every sheet of the set is present), the sheet numbers 1..N that no sheet carries.
 */
export function numberingIssues(sheets: readonly SheetRef[], options: { checkSheetNumbering: boolean; complete: boolean }): NumberingIssue[] {
  const issues: NumberingIssue[] = [];
  const byNumber = new Map<string, SheetRef[]>();
  for (const s of sheets) {
    if (!s.drawingNo || s.drawingNo.trim() === '') continue;
    const key = normalise(s.drawingNo);
    byNumber.set(key, [...(byNumber.get(key) ?? []), s]);
  }
  for (const group of byNumber.values()) {
    if (group.length > 1) issues.push({ kind: 'duplicate_drawing_no', drawingNo: group[0]!.drawingNo!.trim(), keys: group.map((s) => s.key) });
  }
  if (!options.checkSheetNumbering) return issues;
  const numbered = sheets.filter((s) => int(s.sheetCount) !== undefined);
  const counts = [...new Set(numbered.map((s) => int(s.sheetCount)!))];
  if (counts.length > 1) issues.push({ kind: 'count_mismatch', counts: counts.map(String), keys: numbered.map((s) => s.key) });
  const byNo = new Map<number, SheetRef[]>();
  for (const s of sheets) {
    const no = int(s.sheetNo);
    if (no === undefined) continue;
    const count = int(s.sheetCount);
    if (count !== undefined && (no < 1 || no > count)) issues.push({ kind: 'sheet_beyond_count', sheetNo: no, sheetCount: count, keys: [s.key] });
    byNo.set(no, [...(byNo.get(no) ?? []), s]);
  }
  for (const [no, group] of byNo) if (group.length > 1) issues.push({ kind: 'duplicate_sheet_no', sheetNo: no, keys: group.map((s) => s.key) });
  if (options.complete && counts.length === 1) {
    const count = counts[0]!;
    const missing = Array.from({ length: Math.min(count, 999) }, (_, i) => i + 1).filter((n) => !byNo.has(n));
    if (missing.length > 0) issues.push({ kind: 'missing_sheets', missing, sheetCount: count, keys: numbered.map((s) => s.key) });
  }
  return issues;
}

/** A sentence for an issue in the run's language. */
export function describeNumberingIssue(issue: NumberingIssue, zh: boolean): string {
  const where = issue.keys.join(zh ? '、' : ', ');
  switch (issue.kind) {
    case 'duplicate_drawing_no':
      return zh ? `图号 ${issue.drawingNo} 重复：${where}。` : `Drawing number ${issue.drawingNo} is used twice or more: ${where}.`;
    case 'count_mismatch':
      return zh ? `各张图的“共 N 张”不一致（${issue.counts.join('、')}）：${where}。` : `The sheets disagree on the sheet count (${issue.counts.join(', ')}): ${where}.`;
    case 'sheet_beyond_count':
      return zh ? `第 ${issue.sheetNo} 张超出共 ${issue.sheetCount} 张：${where}。` : `Sheet ${issue.sheetNo} is beyond the count of ${issue.sheetCount}: ${where}.`;
    case 'duplicate_sheet_no':
      return zh ? `“第 ${issue.sheetNo} 张”出现多次：${where}。` : `Sheet number ${issue.sheetNo} appears more than once: ${where}.`;
    case 'missing_sheets':
      return zh ? `共 ${issue.sheetCount} 张，缺第 ${issue.missing.join('、')} 张。` : `Of ${issue.sheetCount} sheets, number(s) ${issue.missing.join(', ')} are missing.`;
  }
}

import type { ReviewReport } from './report';
import type { ReviewLocale } from './rules';
import { describeNumberingIssue, numberingIssues, type NumberingIssue } from './rules';

/** One file of a drawing set as the set report sees it. */
export interface SetFileOutcome {
  /** File name inside the set folder. */
  file: string;
  /** Folder of this file's own report, relative to the set's output folder. */
  reportDir: string;
  exitCode: number;
  /** The file's report when its review completed (possibly with errors). */
  report?: ReviewReport;
  /** Why the file has no report (typed error). */
  error?: { code: string; message: string };
}

export interface SetSheetRow {
  file: string;
  frameId: string;
  title: string | null;
  drawingNo: string | null;
  sheetNo: string | null;
  sheetCount: string | null;
  sheet: string | null;
}

export interface SetReport {
  schemaVersion: 1;
  createdAt: string;
  folder: string;
  locale: ReviewLocale;
  exitCode: number;
  files: { file: string; reportDir: string; exitCode: number; findings: number; blocking: number; frames: number; error: { code: string; message: string } | null }[];
  sheets: SetSheetRow[];
  /** Cross-sheet checks over every sheet of the set (duplicate 图号, 共 N 张 第 M 张). */
  crossSheet: (NumberingIssue & { message: string })[];
  findings: { file: string; frameId: string | null; checklistItemId: string; severity: string; message: string }[];
}

/** Exit codes ranked from best to worst: clean, incomplete, blocking, incomplete + blocking, error. */
const EXIT_RANK = [0, 3, 1, 4, 2];

/** The set's exit code: the worst of its files' (see REVIEW_EXIT); an unknown code counts as an error. */
export function worstExitCode(codes: readonly number[]): number {
  const rank = (code: number): number => (EXIT_RANK.includes(code) ? EXIT_RANK.indexOf(code) : EXIT_RANK.length - 1);
  return codes.reduce((worst, code) => (rank(code) > rank(worst) ? code : worst), 0);
}

/** Builds the set report from the files' outcomes (pure; sheets and findings in file order). */
export function buildSetReport(folder: string, outcomes: readonly SetFileOutcome[], locale: ReviewLocale, createdAt: string): SetReport {
  const sheets: SetSheetRow[] = outcomes.flatMap((o) =>
    (o.report?.frames ?? [])
      .filter((f) => f.frame.origin === 'detected')
      .map((f) => ({
        file: o.file,
        frameId: f.frame.id,
        title: f.frame.titleBlock.title ?? null,
        drawingNo: f.frame.titleBlock.drawingNo ?? null,
        sheetNo: f.frame.titleBlock.sheetNo ?? null,
        sheetCount: f.frame.titleBlock.sheetCount ?? null,
        sheet: f.frame.sheetName,
      })),
  );
  const issues = numberingIssues(
    sheets.map((s) => ({ key: `${s.file}#${s.frameId}`, drawingNo: s.drawingNo ?? undefined, sheetNo: s.sheetNo ?? undefined, sheetCount: s.sheetCount ?? undefined })),
    { checkSheetNumbering: true, complete: true },
  );
  return {
    schemaVersion: 1,
    createdAt,
    folder,
    locale,
    exitCode: worstExitCode(outcomes.map((o) => o.exitCode)),
    files: outcomes.map((o) => ({
      file: o.file,
      reportDir: o.reportDir,
      exitCode: o.exitCode,
      findings: o.report?.summary.total ?? 0,
      blocking: o.report?.summary.bySeverity.blocking ?? 0,
      frames: o.report?.summary.frames ?? 0,
      error: o.error ?? null,
    })),
    sheets,
    crossSheet: issues.map((issue) => ({ ...issue, message: describeNumberingIssue(issue, locale === 'zh-CN') })),
    findings: outcomes.flatMap((o) => (o.report?.findings ?? []).map((f) => ({ file: o.file, frameId: f.frameId, checklistItemId: f.checklistItemId, severity: f.severity, message: f.message }))),
  };
}

const cell = (value: string | null | number): string => String(value ?? '—').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The set report as Markdown: files, the table of sheets, cross-sheet findings, all findings. */
export function renderSetMarkdown(report: SetReport): string {
  const zh = report.locale === 'zh-CN';
  const t = zh
    ? { title: '图纸集审查报告', files: '文件', sheets: '图纸目录', cross: '跨图检查', none: '未发现问题。', findings: '全部问题', head: ['文件', '图框', '图名', '图号', '第 M 张', '共 N 张', '图幅'], fileHead: ['文件', '图框数', '问题', '阻断', '退出码', '报告'] }
    : { title: 'Drawing set review', files: 'Files', sheets: 'Sheets', cross: 'Cross-sheet checks', none: 'No problems found.', findings: 'All findings', head: ['File', 'Frame', 'Title', 'Drawing no.', 'Sheet', 'Of', 'Size'], fileHead: ['File', 'Frames', 'Findings', 'Blocking', 'Exit', 'Report'] };
  const row = (cells: (string | number | null)[]): string => `| ${cells.map(cell).join(' | ')} |`;
  const rule = (n: number): string => `|${' --- |'.repeat(n)}`;
  const lines = [`# ${t.title}`, '', `${report.folder} · ${report.createdAt} · exit ${report.exitCode}`, '', `## ${t.files}`, '', row(t.fileHead), rule(t.fileHead.length)];
  for (const f of report.files) lines.push(row([f.file, f.frames, f.error ? `[${f.error.code}] ${f.error.message}` : f.findings, f.blocking, f.exitCode, `${f.reportDir}/report.md`]));
  lines.push('', `## ${t.sheets}`, '', row(t.head), rule(t.head.length));
  for (const s of report.sheets) lines.push(row([s.file, s.frameId, s.title, s.drawingNo, s.sheetNo, s.sheetCount, s.sheet]));
  lines.push('', `## ${t.cross}`, '');
  lines.push(...(report.crossSheet.length === 0 ? [t.none] : report.crossSheet.map((c) => `- ${c.message}`)));
  lines.push('', `## ${t.findings}`, '');
  lines.push(...(report.findings.length === 0 ? [t.none] : report.findings.map((f) => `- **${f.severity}** ${f.checklistItemId} · ${f.file}${f.frameId ? `#${f.frameId}` : ''}: ${f.message}`)));
  return `${lines.join('\n')}\n`;
}

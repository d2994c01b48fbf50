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
  /** The file's review run in the store, when the caller keeps runs (the app opens it from the set). */
  runId?: string;
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
  files: { file: string; reportDir: string; runId: string | null; exitCode: number; findings: number; blocking: number; frames: number; error: { code: string; message: string } | null }[];
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

/** Folds the files' outcomes into a set report one at a time (pure; sheets and findings in the order added). */
export interface SetReportBuilder {
  /** Adds one file; its report is read here and not kept (only its table rows and findings are). */
  add(outcome: SetFileOutcome): void;
  finish(createdAt: string): SetReport;
}

/**
 * A set report built file by file: a caller can load each file's report, add it and drop it, so
 * a set of any size needs one file's report in memory plus the set report's own rows.
 */
export function createSetReportBuilder(folder: string, locale: ReviewLocale): SetReportBuilder {
  const files: SetReport['files'] = [];
  const sheets: SetSheetRow[] = [];
  const findings: SetReport['findings'] = [];
  return {
    add(o) {
      for (const f of o.report?.frames ?? []) {
        if (f.frame.origin !== 'detected') continue;
        const tb = f.frame.titleBlock;
        sheets.push({ file: o.file, frameId: f.frame.id, title: tb.title ?? null, drawingNo: tb.drawingNo ?? null, sheetNo: tb.sheetNo ?? null, sheetCount: tb.sheetCount ?? null, sheet: f.frame.sheetName });
      }
      files.push({
        file: o.file,
        reportDir: o.reportDir,
        runId: o.runId ?? null,
        exitCode: o.exitCode,
        findings: o.report?.summary.total ?? 0,
        blocking: o.report?.summary.bySeverity.blocking ?? 0,
        frames: o.report?.summary.frames ?? 0,
        error: o.error ?? null,
      });
      for (const f of o.report?.findings ?? []) findings.push({ file: o.file, frameId: f.frameId, checklistItemId: f.checklistItemId, severity: f.severity, message: f.message });
    },
    finish(createdAt) {
      const issues = numberingIssues(
        sheets.map((s) => ({ key: `${s.file}#${s.frameId}`, drawingNo: s.drawingNo ?? undefined, sheetNo: s.sheetNo ?? undefined, sheetCount: s.sheetCount ?? undefined })),
        { checkSheetNumbering: true, complete: true },
      );
      return {
        schemaVersion: 1,
        createdAt,
        folder,
        locale,
        exitCode: worstExitCode(files.map((f) => f.exitCode)),
        files: [...files],
        sheets: [...sheets],
        crossSheet: issues.map((issue) => ({ ...issue, message: describeNumberingIssue(issue, locale === 'zh-CN') })),
        findings: [...findings],
      };
    },
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

import { SEVERITIES } from './checklist';
import type { Finding, FindingLocation } from './finding';
import type { ReviewReport } from './report';
import { auditSection, errorText, recoveredSection } from './reportSections';

const SEVERITY_LABEL = {
  'zh-CN': { blocking: '阻断', major: '主要', minor: '次要', info: '提示' },
  en: { blocking: 'Blocking', major: 'Major', minor: 'Minor', info: 'Info' },
} as const;

const TEXT = {
  'zh-CN': {
    title: '审图报告', source: '图纸', checklist: '审查清单', summary: '汇总', total: '问题总数', frames: '图框', drawingLevel: '整图问题',
    none: '未发现问题。', noneRulesOnly: '规则审查未发现问题（AI 审查未运行）。', failed: '取证失败', llmFailed: 'AI 审查未能运行，本图框只有规则审查结果', partial: '部分检查未运行', evidence: '证据', location: '位置', annotation: '建议批注', notEvaluated: '未评估的清单项', run: '审查编号', whole: '整张图纸', hypotheses: '待确认的 AI 假设', hypothesesNote: '模型的这些发现没有位于其附近的 CAD 图元佐证，不计入问题总数，确认前不会写入图纸。', ai: 'AI 发现', reviewer: '审图模型',
    stats: '文字 {t}，尺寸 {d}，图元 {e}',
  },
  en: {
    title: 'Drawing review report', source: 'Drawing', checklist: 'Checklist', summary: 'Summary', total: 'Total findings', frames: 'Frames', drawingLevel: 'Drawing-level findings',
    none: 'No findings.', noneRulesOnly: 'No rule findings (the AI review did not run).', failed: 'Evidence failed', llmFailed: 'The AI review did not run; this frame has rule findings only', partial: 'Some checks did not run', evidence: 'Evidence', location: 'Location', annotation: 'Proposed annotation', notEvaluated: 'Checklist items not evaluated', run: 'Run', whole: 'Whole drawing', hypotheses: 'AI hypotheses to confirm', hypothesesNote: 'No CAD entity near these model findings confirms them; they are not counted and are not written until you promote them.', ai: 'AI finding', reviewer: 'Reviewer model',
    stats: '{t} texts, {d} dimensions, {e} entities',
  },
} as const;

/** Table cells and inline text must not break the Markdown structure. */
const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const fmt = (n: number): string => String(Math.round(n * 100) / 100);

function placeText(l: FindingLocation): string {
  return l.kind === 'point' ? `(${fmt(l.point.x)}, ${fmt(l.point.y)})` : `[${fmt(l.bbox.minX)}, ${fmt(l.bbox.minY)}] – [${fmt(l.bbox.maxX)}, ${fmt(l.bbox.maxY)}]`;
}

/** Places shown on a grouped finding's line; the rest are in report.json. */
const SHOWN_PLACES = 8;

/** One place, or a grouped finding's count and its first places on one line. */
function locationText(finding: Finding): string {
  const places = finding.locations ?? [finding.location];
  const shown = places.slice(0, SHOWN_PLACES).map(placeText).join('; ');
  if (finding.count === undefined) return shown;
  const rest = finding.count - Math.min(places.length, SHOWN_PLACES);
  return `${finding.count} × ${shown}${rest > 0 ? ` … (+${rest})` : ''}`;
}

function findingLines(report: ReviewReport, finding: Finding): string[] {
  const t = TEXT[report.options.locale];
  const severity = SEVERITY_LABEL[report.options.locale][finding.severity];
  const origin = finding.source === 'llm' ? ` · ${t.ai}（${report.options.reviewer?.model ?? '?'}）` : '';
  return [
    `- **[${severity}] ${finding.checklistItemId}${finding.count ? ` ×${finding.count}` : ''}${origin}** \`${finding.shortId}\` — ${escapeCell(finding.message)}`,
    `  - ${t.location}: ${locationText(finding)}`,
    `  - ${t.evidence}: ${finding.evidenceRefs.slice(0, 12).map((r) => `\`${r}\``).join(', ')}${finding.evidenceRefs.length > 12 ? ' …' : ''}`,
    `  - ${t.annotation}: “${escapeCell(finding.proposedAnnotation.text)}”`,
  ];
}

/** A plain warning under the summary when some frame lost a step: the totals are then rules-only there. */
function partialNotice(report: ReviewReport): string[] {
  const t = TEXT[report.options.locale];
  const { failedFrames, llmFailedFrames, frames } = report.summary;
  if (failedFrames === 0 && llmFailedFrames === 0) return [];
  const zh = report.options.locale === 'zh-CN';
  const parts = [
    ...(llmFailedFrames > 0 ? [zh ? `AI 审查在 ${llmFailedFrames}/${frames} 个图框上未运行` : `the AI review did not run on ${llmFailedFrames} of ${frames} frame(s)`] : []),
    ...(failedFrames > 0 ? [zh ? `${failedFrames} 个图框取证失败，未审查` : `${failedFrames} frame(s) could not be read and were not reviewed`] : []),
  ];
  return [`> **${t.partial}**: ${parts.join(zh ? '；' : '; ')}${zh ? '。' : '.'}`, ''];
}

/** Markdown rendering of a report: summary by severity, one section per frame, findings with evidence. */
export function renderReportMarkdown(report: ReviewReport): string {
  const locale = report.options.locale;
  const t = TEXT[locale];
  const lines: string[] = [
    `# ${t.title}`,
    '',
    `- ${t.source}: \`${report.drawing.source}\``,
    `- ${t.checklist}: ${report.checklist.id} ${report.checklist.version}`,
    `- ${t.run}: \`${report.runId}\` · ${report.createdAt}`,
    ...(report.options.reviewer ? [`- ${t.reviewer}: \`${report.options.reviewer.model}\``] : []),
    '',
    ...recoveredSection(report),
    `## ${t.summary}`,
    '',
    ...partialNotice(report),
    `| ${SEVERITIES.map((s) => SEVERITY_LABEL[locale][s]).join(' | ')} | ${t.total} |`,
    `|${SEVERITIES.map(() => '---:').join('|')}|---:|`,
    `| ${SEVERITIES.map((s) => report.summary.bySeverity[s]).join(' | ')} | ${report.summary.total} |`,
    '',
  ];
  const drawingLevel = report.findings.filter((f) => f.frameId === null);
  if (drawingLevel.length > 0) lines.push(`## ${t.drawingLevel}`, '', ...drawingLevel.flatMap((f) => findingLines(report, f)), '');
  for (const entry of report.frames) {
    const frame = entry.frame;
    const label = frame.origin === 'whole-drawing' ? t.whole : frame.label || frame.id;
    lines.push(`## ${t.frames}: ${escapeCell(label)} (\`${frame.id}\`)`, '');
    for (const shot of entry.screenshots.slice(0, 1)) lines.push(`![${escapeCell(frame.id)}](${encodeURI(shot.file)})`, '');
    if (entry.status === 'failed') lines.push(`> ${t.failed}: ${errorText(locale, entry.error)}`, '');
    if (entry.status === 'llm_failed') lines.push(`> ${t.llmFailed}: ${errorText(locale, entry.error)}`, '');
    if (entry.evidence) {
      lines.push(t.stats.replace('{t}', String(entry.evidence.texts)).replace('{d}', String(entry.evidence.dimensions)).replace('{e}', String(entry.evidence.entities)), '');
    }
    const findings = report.findings.filter((f) => f.frameId === frame.id && !f.hypothesis);
    const hypotheses = report.findings.filter((f) => f.frameId === frame.id && f.hypothesis);
    const none = entry.status === 'llm_failed' ? t.noneRulesOnly : t.none;
    lines.push(...(findings.length > 0 ? findings.flatMap((f) => findingLines(report, f)) : [none]), '');
    if (hypotheses.length > 0) lines.push(`### ${t.hypotheses}`, '', `_${t.hypothesesNote}_`, '', ...hypotheses.flatMap((f) => findingLines(report, f)), '');
  }
  if (report.notEvaluated.length > 0) {
    lines.push(`## ${t.notEvaluated}`, '', ...report.notEvaluated.map((n) => `- ${n.checklistItemId}: ${escapeCell(n.reason)}${n.frameIds ? ` (${n.frameIds.map((id) => `\`${id}\``).join(', ')})` : ''}`), '');
  }
  lines.push(...auditSection(report));
  return lines.join('\n');
}

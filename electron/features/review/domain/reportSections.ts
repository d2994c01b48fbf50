import type { AppErrorData } from '../../../../shared/errors';
import type { ReviewReport } from './report';

type Locale = ReviewReport['options']['locale'];
const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** What a typed error means, in Chinese, for the codes a review meets; the code stays beside it. */
const ERROR_ZH: Record<string, string> = {
  LLM_TRANSPORT_UNAVAILABLE: '模型服务不可用（HTTP 5xx、限流或超时，重试后仍失败）',
  LLM_AUTH: '模型服务拒绝了密钥',
  LLM_NOT_FOUND: '模型服务找不到该模型',
  LLM_BAD_REQUEST: '模型服务拒绝了请求',
  LLM_CONTEXT_TOO_LARGE: '请求超出模型的上下文长度',
  LLM_NO_TOOL_CALL: '模型没有按要求调用工具提交结果',
  LLM_BAD_TOOL_ARGUMENTS: '模型提交的工具参数不是合法 JSON',
  LLM_BAD_RESPONSE: '模型服务的回复无法解析',
  LLM_ABORTED: '模型调用已取消',
  REVIEW_LLM_INVALID_FINDINGS: '模型提交的问题在纠正请求后仍不合格',
  REVIEW_LLM_STEP_FAILED: '部分图框的 AI 审查未能运行',
  REVIEW_FRAMES_FAILED: '部分图框无法读取',
};

/** An error as the report prints it: Chinese meaning plus the code in a Chinese run, the message otherwise. */
export function errorText(locale: Locale, error: AppErrorData | null): string {
  if (!error) return '';
  if (locale === 'zh-CN') return `${ERROR_ZH[error.code] ?? (error.code.startsWith('CAD_') ? '图纸后端返回错误' : '发生错误')}（\`${error.code}\`）`;
  return `[${error.code}] ${escapeCell(error.message)}`;
}

/** The note at the top of a report on a file the loader had to repair. */
export function recoveredSection(report: ReviewReport): string[] {
  const problems = report.drawing.problems;
  if (problems.length === 0) return [];
  const zh = report.options.locale === 'zh-CN';
  const kinds = [...new Set(problems.map((p) => p.kind))].join(', ');
  return [
    zh ? `> **图纸经修复后读取**：文件有 ${problems.length} 处损坏，读取时已跳过或修复（${kinds}），审查结果基于修复后的内容。` : `> **Recovered drawing**: the file has ${problems.length} defect(s) the reader skipped or repaired (${kinds}); the review is of the repaired content.`,
    '',
    ...problems.slice(0, 20).map((p) => `- \`${p.kind}\`: ${escapeCell(p.message)}`),
    ...(problems.length > 20 ? [`- … (+${problems.length - 20})`] : []),
    '',
  ];
}

/** The audit section: what the run called, what it refused the model, and the budgets it used. */
export function auditSection(report: ReviewReport): string[] {
  const a = report.audit;
  const zh = report.options.locale === 'zh-CN';
  const reviewer = report.options.reviewer;
  const lines = [
    zh ? '## 审计' : '## Audit',
    '',
    zh ? `- 图纸工具调用：${a.toolCalls} 次，返回 ${a.toolResultBytes} 字节` : `- Drawing tool calls: ${a.toolCalls}, ${a.toolResultBytes} bytes returned`,
  ];
  if (reviewer) {
    lines.push(
      zh ? `- 审图模型：\`${reviewer.model}\`；模型调用 ${a.llmCalls} 次，输入 ${a.promptTokens} / 输出 ${a.completionTokens} tokens` : `- Reviewer model: \`${reviewer.model}\`; ${a.llmCalls} model calls, ${a.promptTokens} prompt / ${a.completionTokens} completion tokens`,
      zh
        ? `- 模型只读工具调用：共 ${a.modelToolCalls} 次，单图框最多 ${a.maxModelToolCallsInFrame} 次（预算每图框 ${reviewer.maxToolCallsPerFrame} 次，纠正请求最多 ${reviewer.maxReasks} 次）`
        : `- Model read-only tool calls: ${a.modelToolCalls} in all, at most ${a.maxModelToolCallsInFrame} in a frame (budget ${reviewer.maxToolCallsPerFrame} per frame, at most ${reviewer.maxReasks} correction requests)`,
    );
    if (a.refusedCalls.length > 0) {
      lines.push('', zh ? '| 图框 | 被拒绝的调用 | 原因 | 参数摘要 (sha256) |' : '| Frame | Refused call | Reason | Arguments (sha256) |', '|---|---|---|---|');
      const reason = (r: 'not-read-only' | 'budget'): string => (zh ? (r === 'budget' ? '超出预算' : '非只读工具') : r === 'budget' ? 'over budget' : 'not read-only');
      for (const c of a.refusedCalls.slice(0, 50)) lines.push(`| \`${c.frameId}\` | \`${c.tool}\` | ${reason(c.reason)} | \`${c.argsDigest.slice(0, 16)}…\` |`);
    } else lines.push(zh ? '- 没有被拒绝的模型调用' : '- No model call was refused');
  } else lines.push(zh ? '- 本次未使用审图模型（仅规则审查）' : '- No reviewer model (rules only)');
  lines.push('');
  return lines;
}

import { AppError } from '../../../../shared/errors';
import type { LlmContentPart, LlmGateway, LlmMessage, LlmResponse, LlmToolCall, LlmToolDefinition, LlmUsage } from '../../../platform/llm/types';
import { assistantTurn } from '../../../platform/llm/assistantTurn';
import type { DrawingCapability, DrawingSource, DrawingToolInfo } from '../ports/drawingSource';
import type { RunUsage } from '../ports/reviewStore';
import type { Checklist } from '../domain/checklist';
import type { FrameEvidence, ScreenshotRef } from '../domain/evidence';
import type { Frame } from '../domain/frame';
import { checkSubmission, submissionSchema, type SubmissionCheck, type SubmissionIssue } from '../domain/llmFindings';
import { entityBoxes } from '../domain/cadSupport';
import { frameUnitsPerPaperMm } from '../domain/rules';
import type { FindingDraft } from '../domain/finding';
import { sha256Hex } from '../domain/sha256';
import { z } from 'zod';
import { buildFramePrompt } from './llmPrompt';
import { callTool, type ToolCallMeter } from './toolCalls';

/** Capabilities whose tools the model may call: reads that answer in text. */
const MODEL_CAPABILITIES: DrawingCapability[] = ['texts', 'dimensions', 'entities', 'layers', 'drawingInfo', 'zeroLength', 'duplicates'];
/** A tool result is cut to this many characters before it goes back to the model. */
const MAX_TOOL_RESULT_CHARS = 20_000;
export const SUBMIT_TOOL = 'submit_findings';

export interface LlmReviewSettings {
  gateway: LlmGateway;
  /** "provider/model" of the reviewer, named in reports next to AI findings. */
  model: string;
  /** Read-only tool calls the model may make per frame before it must submit. */
  maxToolCalls: number;
  /** Field-level re-asks after an invalid submission before the frame's LLM review fails. */
  maxReasks: number;
}

/** One entry of the per-frame audit log: every call the model asked for and what came back. */
export interface LlmCallLog {
  tool: string;
  argsDigest: string;
  /** sha256 of the result text given back to the model; null when the call was refused. */
  resultDigest: string | null;
  refused: null | 'not-read-only' | 'budget';
}

export interface LlmFrameInput {
  settings: LlmReviewSettings;
  source: DrawingSource;
  meter: ToolCallMeter;
  tools: readonly DrawingToolInfo[];
  capabilities: Partial<Record<DrawingCapability, string>>;
  checklist: Checklist;
  frame: Frame;
  evidence: FrameEvidence;
  images: { ref: ScreenshotRef; png: Uint8Array }[];
  locale: 'zh-CN' | 'en';
  /** The drawing's language (annotation texts). */
  annotationLocale: 'zh-CN' | 'en';
  signal?: AbortSignal;
}

export interface LlmFrameResult {
  drafts: FindingDraft[];
  log: LlmCallLog[];
  usage: Partial<RunUsage>;
}

export const submitTool: LlmToolDefinition = {
  name: SUBMIT_TOOL,
  description: 'Submit the findings for this frame (an empty list when there is nothing to report). The only way to report findings.',
  parameters: z.toJSONSchema(submissionSchema) as Record<string, unknown>,
};

/**
 * The controlled LLM sub-loop of one frame: the model sees the frame's evidence and screenshots,
 * may call whitelisted read-only tools within a call budget (every call logged with a digest of its
 * result; anything else is refused and never reaches the drawing), and must answer through the
 * forced `submit_findings` tool. Invalid submissions get a bounded, field-level re-ask.
 * Errors: REVIEW_LLM_INVALID_FINDINGS (still invalid after the re-asks), LLM_* from the gateway.
 */
export async function reviewFrameWithLlm(input: LlmFrameInput): Promise<LlmFrameResult> {
  const allowed = new Map(MODEL_CAPABILITIES.flatMap((c) => (input.capabilities[c] ? [[input.capabilities[c]!, c] as const] : [])));
  const offered: LlmToolDefinition[] = input.tools
    .filter((t) => allowed.has(t.name))
    .map((t) => ({ name: t.name, description: t.description ?? t.name, parameters: t.inputSchema ?? { type: 'object', properties: {} } }));
  const prompt = buildFramePrompt({ ...input, submitTool: SUBMIT_TOOL });
  // The frame's evidence and screenshots open every call of the loop: a cache breakpoint after
  // them lets Anthropic serve that prefix from its cache on each later call.
  const messages: LlmMessage[] = [
    { role: 'user', content: [{ type: 'text', text: prompt.user }, ...input.images.map((i, n, all): LlmContentPart => ({ type: 'image', mimeType: 'image/png', data: i.png, ...(n === all.length - 1 ? { cacheBreakpoint: true } : {}) }))] },
  ];
  const log: LlmCallLog[] = [];
  const usage = { llmCalls: 0, promptTokens: 0, completionTokens: 0, contextBytes: 0, llmLatencyMs: 0 };
  const account = (u: LlmUsage): void => {
    usage.llmCalls++;
    usage.promptTokens += u.promptTokens ?? 0;
    usage.completionTokens += u.completionTokens ?? 0;
    usage.contextBytes += u.contextBytes;
    usage.llmLatencyMs += u.latencyMs;
  };
  const knownRefs = new Set([...prompt.refs]);
  const support = { entityBoxes: entityBoxes(input.evidence), unitsPerPaperMm: frameUnitsPerPaperMm(input.frame) };
  const check = (value: unknown): SubmissionCheck =>
    checkSubmission(value, { frame: input.frame, checklist: input.checklist, knownRefs, screenshots: input.images.map((i) => i.ref), ...support });
  // One re-ask for findings without CAD evidence near them; after it they are kept as hypotheses.
  let evidenceReasked = false;
  const accept = (verdict: Extract<SubmissionCheck, { ok: true }>, calls: readonly LlmToolCall[], reply: Reply): FindingDraft[] | undefined => {
    if (verdict.unsupported.length === 0) return verdict.drafts;
    if (!evidenceReasked) {
      evidenceReasked = true;
      reask(messages, calls, verdict.unsupported.map((u) => u.issue), 0, input.settings.maxReasks, reply);
      return undefined;
    }
    const weak = new Set(verdict.unsupported.map((u) => u.draft));
    return verdict.drafts.map((d) => (weak.has(d) ? { ...d, hypothesis: true as const } : d));
  };
  let reasks = 0;
  let executed = 0;
  let mustSubmit = false;
  const request = { system: prompt.system, maxOutputTokens: 4000, purpose: 'review.frame', ...(input.signal ? { signal: input.signal } : {}) };

  for (;;) {
    if (mustSubmit) {
      const forced = await input.settings.gateway.callTool({ ...request, messages, tool: submitTool });
      account(forced.usage);
      const call: LlmToolCall = { id: forced.callId, name: SUBMIT_TOOL, rawArguments: forced.rawArguments, parsed: forced.value };
      const reply: Reply = { text: '', ...(forced.reasoning ? { reasoning: forced.reasoning } : {}) };
      const verdict = check(forced.value);
      if (verdict.ok) {
        const drafts = accept(verdict, [call], reply);
        if (drafts) return { drafts, log, usage };
        continue;
      }
      reask(messages, [call], verdict.issues, ++reasks, input.settings.maxReasks, reply);
      continue;
    }
    const response = await input.settings.gateway.complete({ ...request, messages, tools: [...offered, submitTool], toolChoice: 'auto' });
    account(response.usage);
    if (response.toolCalls.length === 0) {
      // Plain text is never parsed for findings: the next turn forces the structured tool.
      mustSubmit = true;
      continue;
    }
    const results: LlmContentPart[] = [];
    for (const call of response.toolCalls) {
      if (call.name === SUBMIT_TOOL) {
        const verdict = check(call.parsed);
        if (verdict.ok) {
          const drafts = accept(verdict, response.toolCalls, response);
          if (drafts) return { drafts, log, usage };
        } else reask(messages, response.toolCalls, verdict.issues, ++reasks, input.settings.maxReasks, response);
        results.length = 0;
        break;
      }
      const argsDigest = sha256Hex(call.rawArguments);
      if (!allowed.has(call.name)) {
        log.push({ tool: call.name, argsDigest, resultDigest: null, refused: 'not-read-only' });
        results.push({ type: 'tool_result', toolCallId: call.id, content: `Refused: ${call.name} is not an allowed read-only tool. Allowed: ${[...allowed.keys()].join(', ')}.`, isError: true });
        continue;
      }
      if (executed >= input.settings.maxToolCalls) {
        log.push({ tool: call.name, argsDigest, resultDigest: null, refused: 'budget' });
        results.push({ type: 'tool_result', toolCallId: call.id, content: `Refused: the tool budget of ${input.settings.maxToolCalls} calls is spent; submit your findings now.`, isError: true });
        mustSubmit = true;
        continue;
      }
      executed++;
      const text = await runModelTool(input, call);
      knownRefs.add(`tool:${call.name}`);
      log.push({ tool: call.name, argsDigest, resultDigest: sha256Hex(text.content), refused: null });
      results.push({ type: 'tool_result', toolCallId: call.id, content: text.content, ...(text.isError ? { isError: true } : {}) });
    }
    if (results.length > 0) {
      // The reasoning goes with the calls: thinking models (Kimi, DeepSeek, GLM) refuse a history without it.
      messages.push(assistantTurn(response, response.toolCalls));
      messages.push({ role: 'user', content: results });
    }
  }
}

async function runModelTool(input: LlmFrameInput, call: LlmToolCall): Promise<{ content: string; isError: boolean }> {
  const args = call.parsed !== null && typeof call.parsed === 'object' && !Array.isArray(call.parsed) ? (call.parsed as Record<string, unknown>) : {};
  try {
    const result = await callTool(input.source, input.meter, call.name, args);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image omitted]`)).join('\n');
    return { content: text.length > MAX_TOOL_RESULT_CHARS ? `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated]` : text, isError: false };
  } catch (error) {
    // The model learns the tool failed (typed message, no stack) and can adapt.
    return { content: error instanceof AppError ? `[${error.code}] ${error.message}` : 'tool failed', isError: true };
  }
}

/** What the model said beside its calls: the answer text and any separate reasoning. */
type Reply = Pick<LlmResponse, 'text' | 'reasoning'>;

/** Appends the invalid submission and a field-level correction request, or gives up. */
function reask(messages: LlmMessage[], calls: readonly LlmToolCall[], issues: SubmissionIssue[], attempt: number, maxReasks: number, reply: Reply): void {
  if (attempt > maxReasks) {
    throw new AppError('REVIEW_LLM_INVALID_FINDINGS', `The model's findings were still invalid after ${maxReasks} correction request(s): ${issues.map((i) => `${i.path} ${i.message}`).join('; ').slice(0, 500)}`, { data: { issues } });
  }
  messages.push(assistantTurn(reply, calls));
  messages.push({
    role: 'user',
    content: calls.map((c): LlmContentPart => ({
      type: 'tool_result',
      toolCallId: c.id,
      content: c.name === SUBMIT_TOOL ? `Invalid submission; fix exactly these fields and submit again:\n${issues.map((i) => `- ${i.path}: ${i.message}`).join('\n')}` : 'Not run: submit_findings must be called alone.',
      isError: true,
    })),
  });
}

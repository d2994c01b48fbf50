import { toAppErrorData, type AppErrorData } from '../../../shared/errors';
import type { LlmGateway, LlmMessage, LlmToolDefinition, LlmUsage } from './types';

/** A 64×64 solid red PNG: the image-input probe (small enough for every provider's limits). */
const RED_SQUARE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAS0lEQVRo3u3PQQkAAAgAsetfWiP4FgYrsKZeS0BAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEDgsqnc8OKOIH2AAAAAAElFTkSuQmCC',
  'base64',
);

/** The capabilities the slices need from a model; each is one check. */
export const conformanceChecks = ['plainText', 'imageInput', 'forcedToolCall', 'toolLoop'] as const;
export type ConformanceCheckName = (typeof conformanceChecks)[number];

export interface ConformanceCheckResult {
  name: ConformanceCheckName;
  passed: boolean;
  /** What was observed (reply excerpt, raw tool arguments) or why it failed. */
  detail: string;
  error?: AppErrorData;
  usage?: LlmUsage[];
}

/** Result of `llm-check`: per-check outcomes plus the capability record stored for the model. */
export interface ConformanceReport {
  providerId: string;
  protocol: string;
  model: string;
  checkedAt: string;
  checks: ConformanceCheckResult[];
  capabilities: Record<ConformanceCheckName, boolean>;
}

const RECORD_MEASUREMENT: LlmToolDefinition = {
  name: 'record_measurement',
  description: 'Records one measured length.',
  parameters: {
    type: 'object',
    properties: { value: { type: 'number', description: 'The length' }, unit: { type: 'string', enum: ['mm', 'cm', 'm'] } },
    required: ['value', 'unit'],
    additionalProperties: false,
  },
};

const GET_HOLE_COUNT: LlmToolDefinition = {
  name: 'get_hole_count',
  description: 'Returns how many holes the part with the given id has.',
  parameters: { type: 'object', properties: { part_id: { type: 'string' } }, required: ['part_id'], additionalProperties: false },
};

const user = (text: string): LlmMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const excerpt = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

type CheckOutcome = Omit<ConformanceCheckResult, 'name' | 'error'>;

async function checkPlainText(gateway: LlmGateway): Promise<CheckOutcome> {
  const response = await gateway.complete({ messages: [user('Reply with exactly one word: pong')], maxOutputTokens: 200, purpose: 'llm-check.text' });
  return { passed: /pong/i.test(response.text), detail: excerpt(response.text), usage: [response.usage] };
}

async function checkImageInput(gateway: LlmGateway): Promise<CheckOutcome> {
  const response = await gateway.complete({
    messages: [{ role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: RED_SQUARE_PNG }, { type: 'text', text: 'What colour fills this image? Answer with one English word.' }] }],
    maxOutputTokens: 200,
    purpose: 'llm-check.image',
  });
  return { passed: /red/i.test(response.text), detail: excerpt(response.text), usage: [response.usage] };
}

async function checkForcedToolCall(gateway: LlmGateway): Promise<CheckOutcome> {
  const result = await gateway.callTool({ messages: [user('The bolt is 12 mm long. Record this measurement.')], tool: RECORD_MEASUREMENT, maxOutputTokens: 300, purpose: 'llm-check.tool' });
  const value = result.value as { value?: unknown; unit?: unknown } | null;
  const passed = typeof value === 'object' && value !== null && value.value === 12 && value.unit === 'mm';
  return { passed, detail: `raw arguments ${excerpt(result.rawArguments)}`, usage: [result.usage] };
}

async function checkToolLoop(gateway: LlmGateway): Promise<CheckOutcome> {
  const question = user('How many holes does part FL-120 have? Use the tool, then answer with the number.');
  const first = await gateway.complete({ messages: [question], tools: [GET_HOLE_COUNT], toolChoice: 'auto', maxOutputTokens: 300, purpose: 'llm-check.loop' });
  const call = first.toolCalls.find((c) => c.name === GET_HOLE_COUNT.name);
  if (!call) return { passed: false, detail: `no ${GET_HOLE_COUNT.name} call; text ${excerpt(first.text)}`, usage: [first.usage] };
  const second = await gateway.complete({
    messages: [
      question,
      { role: 'assistant', content: [...(first.text ? [{ type: 'text' as const, text: first.text }] : []), { type: 'tool_call', id: call.id, name: call.name, arguments: call.rawArguments }] },
      { role: 'user', content: [{ type: 'tool_result', toolCallId: call.id, content: '{"part_id":"FL-120","holes":7}' }] },
    ],
    tools: [GET_HOLE_COUNT],
    maxOutputTokens: 300,
    purpose: 'llm-check.loop',
  });
  return { passed: /\b7\b|seven/i.test(second.text), detail: `called with ${excerpt(call.rawArguments)}, answered ${excerpt(second.text)}`, usage: [first.usage, second.usage] };
}

const runners: Record<ConformanceCheckName, (gateway: LlmGateway) => Promise<CheckOutcome>> = {
  plainText: checkPlainText,
  imageInput: checkImageInput,
  forcedToolCall: checkForcedToolCall,
  toolLoop: checkToolLoop,
};

/**
 * Runs the conformance checks in order against one provider/model. A check that throws is
 * recorded as failed with its typed error data (never a stack) and the remaining checks
 * still run, so one missing capability does not hide the others.
 */
export async function runLlmConformance(
  gateway: LlmGateway,
  target: { providerId: string; protocol: string; model: string },
  now: () => Date = () => new Date(),
): Promise<ConformanceReport> {
  const checks: ConformanceCheckResult[] = [];
  for (const name of conformanceChecks) {
    try {
      checks.push({ name, ...(await runners[name](gateway)) });
    } catch (error) {
      const data = toAppErrorData(error);
      checks.push({ name, passed: false, detail: `${data.code}: ${data.message}`, error: data });
    }
  }
  const capabilities = Object.fromEntries(checks.map((c) => [c.name, c.passed])) as Record<ConformanceCheckName, boolean>;
  return { ...target, checkedAt: now().toISOString(), checks, capabilities };
}

import { AppError } from '../../../../shared/errors';
import type { DrawingCapability, DrawingSource, DrawingToolResult } from '../ports/drawingSource';

/** Counts what the evidence phase asked of the backend (usage totals and report refs). */
export interface ToolCallMeter {
  calls: number;
  resultBytes: number;
  /** "tool:<name>" refs in call order (deduplicated). */
  refs: Set<string>;
  /**
   * Argument names each tool declares in its input schema (from tools/list). Optional arguments
   * a backend does not declare (paging, bbox) are dropped rather than sent: strict backends
   * refuse unknown arguments, and backends differ in what they accept.
   */
  declared: Map<string, ReadonlySet<string>>;
}

export const newMeter = (): ToolCallMeter => ({ calls: 0, resultBytes: 0, refs: new Set(), declared: new Map() });

/** Records the declared argument names of every announced tool that has an input schema. */
export function learnToolParams(meter: ToolCallMeter, tools: readonly { name: string; inputSchema?: Record<string, unknown> }[]): void {
  for (const tool of tools) {
    const properties = tool.inputSchema?.properties;
    if (properties && typeof properties === 'object') meter.declared.set(tool.name, new Set(Object.keys(properties)));
  }
}

function resultBytes(result: DrawingToolResult): number {
  return result.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : block.data.length), 0);
}

function textOf(result: DrawingToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** Tool name for a capability, or undefined when the backend lacks it. */
export function toolFor(source: Pick<DrawingSource, 'capabilityTools'>, available: ReadonlySet<string>, capability: DrawingCapability): string | undefined {
  const name = source.capabilityTools[capability];
  return name !== undefined && available.has(name) ? name : undefined;
}

/**
 * Calls a tool and returns its raw result. A tool-level failure becomes REVIEW_SOURCE_TOOL_FAILED
 * (with the backend's own message); connection errors from the link pass through unchanged.
 */
export async function callTool(source: DrawingSource, meter: ToolCallMeter, name: string, args: Record<string, unknown>): Promise<DrawingToolResult> {
  const declared = meter.declared.get(name);
  const sent = declared ? Object.fromEntries(Object.entries(args).filter(([key]) => declared.has(key))) : args;
  const result = await source.callTool(name, sent);
  meter.calls++;
  meter.resultBytes += resultBytes(result);
  meter.refs.add(`tool:${name}`);
  if (result.isError) {
    throw new AppError('REVIEW_SOURCE_TOOL_FAILED', `${source.label}: ${name} failed: ${textOf(result).slice(0, 500)}`, { data: { tool: name } });
  }
  return result;
}

/**
 * Calls a tool whose text part carries a JSON payload. Errors: REVIEW_SOURCE_TOOL_FAILED,
 * REVIEW_SOURCE_BAD_RESULT (no text part or not JSON).
 */
export async function callJsonTool(source: DrawingSource, meter: ToolCallMeter, name: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await callTool(source, meter, name, args);
  const text = result.content.find((block) => block.type === 'text');
  if (!text || text.type !== 'text') throw badResult(name, 'no text part');
  try {
    return JSON.parse(text.text) as unknown;
  } catch {
    throw badResult(name, 'text part is not JSON');
  }
}

export function badResult(tool: string, why: string): AppError {
  return new AppError('REVIEW_SOURCE_BAD_RESULT', `The drawing backend's ${tool} returned an unexpected result (${why}).`, { data: { tool, why } });
}

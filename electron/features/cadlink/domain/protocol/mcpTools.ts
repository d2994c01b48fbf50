import { z } from 'zod';
import { isRecord } from './jsonRpc';

/**
 * MCP-shaped tool descriptors and results as carried by tools/list and tools/call. The image
 * block `{type:'image', data, mimeType}` is the MCP standard (base64 data), not the Anthropic
 * Messages `source` shape.
 */

/** One content block of a tool result: text, or a base64 image with its MIME type. */
export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tools/call result. `isError: true` means the tool ran and failed; the text says why. */
export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
}

/** One tool announced by tools/list. `inputSchema` is a JSON Schema object. */
export interface ToolDescriptor {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export const toolDescriptorSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough();

export const toolsListResultSchema = z.object({ tools: z.array(toolDescriptorSchema) }).passthrough();

/**
 * Validates a tools/call result and returns a clean copy (extra members dropped); reports the
 * first issue when it is not MCP-shaped. Hand-written rather than zod: it runs on every call,
 * including 10 MB screenshots, and is on the pipelined hot path.
 */
export function parseToolResult(value: unknown): { ok: true; result: ToolResult } | { ok: false; issue: string } {
  if (!isRecord(value)) return { ok: false, issue: '(root): expected an object' };
  if (!Array.isArray(value.content)) return { ok: false, issue: 'content: expected an array' };
  if (value.isError !== undefined && typeof value.isError !== 'boolean') return { ok: false, issue: 'isError: expected a boolean' };
  const content: ToolContent[] = [];
  for (const [index, block] of value.content.entries()) {
    if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') content.push({ type: 'text', text: block.text });
    else if (isRecord(block) && block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string' && block.mimeType.length > 0) {
      content.push({ type: 'image', data: block.data, mimeType: block.mimeType });
    } else return { ok: false, issue: `content.${index}: expected {type:"text", text} or {type:"image", data, mimeType}` };
  }
  return { ok: true, result: value.isError === undefined ? { content } : { content, isError: value.isError } };
}

/** Validates a tools/list result; tool names must be unique. */
export function parseToolsList(value: unknown): { ok: true; tools: ToolDescriptor[] } | { ok: false; issue: string } {
  const parsed = toolsListResultSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issue: describeIssue(parsed.error) };
  const seen = new Set<string>();
  const tools: ToolDescriptor[] = [];
  for (const tool of parsed.data.tools) {
    if (seen.has(tool.name)) return { ok: false, issue: `tool "${tool.name}" is listed twice` };
    seen.add(tool.name);
    tools.push({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
    });
  }
  return { ok: true, tools };
}

/** Joins the text blocks of a result (images skipped), e.g. for error messages. */
export function joinText(content: readonly ToolContent[]): string {
  return content
    .filter((block): block is Extract<ToolContent, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid shape';
  const where = first.path.length > 0 ? first.path.join('.') : '(root)';
  return `${where}: ${first.message}`;
}

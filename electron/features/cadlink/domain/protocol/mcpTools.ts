import { z } from 'zod';

/**
 * MCP-shaped tool descriptors and results as carried by tools/list and tools/call. The image
 * block `{type:'image', data, mimeType}` is the MCP standard (base64 data), not the Anthropic
 * Messages `source` shape.
 */

export const textContentSchema = z.object({ type: z.literal('text'), text: z.string() }).passthrough();
export const imageContentSchema = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string().min(1) }).passthrough();
export const toolContentSchema = z.discriminatedUnion('type', [textContentSchema, imageContentSchema]);

/** One content block of a tool result: text, or a base64 image with its MIME type. */
export type ToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tools/call result. `isError: true` means the tool ran and failed; the text says why. */
export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
}

export const toolResultSchema = z.object({ content: z.array(toolContentSchema), isError: z.boolean().optional() }).passthrough();

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

/** Validates a tools/call result; reports the first issue when it is not MCP-shaped. */
export function parseToolResult(value: unknown): { ok: true; result: ToolResult } | { ok: false; issue: string } {
  const parsed = toolResultSchema.safeParse(value);
  if (!parsed.success) return { ok: false, issue: describeIssue(parsed.error) };
  const content = parsed.data.content.map(toPlainContent);
  return { ok: true, result: parsed.data.isError === undefined ? { content } : { content, isError: parsed.data.isError } };
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

function toPlainContent(block: z.infer<typeof toolContentSchema>): ToolContent {
  return block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', data: block.data, mimeType: block.mimeType };
}

function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid shape';
  const where = first.path.length > 0 ? first.path.join('.') : '(root)';
  return `${where}: ${first.message}`;
}

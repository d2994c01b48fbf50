import type { AppError } from '../../../../shared/errors';
import { formatEndpoint, protocolError, toolError, type CadEndpoint } from '../domain/protocol/cadErrors';
import type { JsonRpcFailure, JsonRpcSuccess } from '../domain/protocol/jsonRpc';
import { joinText, parseToolResult, parseToolsList, type ToolContent, type ToolDescriptor } from '../domain/protocol/mcpTools';

/**
 * Unifies the two ways the plugin reports failure (a JSON-RPC `error`, or a result with
 * `isError: true`) and malformed replies into one typed result.
 */

/** tools/call reply -> content, CAD_TOOL_ERROR (isError; text kept) or CAD_PROTOCOL_ERROR. */
export function toToolCallResult(reply: JsonRpcSuccess | JsonRpcFailure, tool: string): { ok: true; content: ToolContent[] } | { ok: false; error: AppError } {
  if ('error' in reply) return { ok: false, error: rpcError(reply, `tools/call ${tool}`) };
  const parsed = parseToolResult(reply.result);
  if (!parsed.ok) return { ok: false, error: protocolError(`${tool} returned a result that is not MCP-shaped (${parsed.issue}).`, { tool, issue: parsed.issue }) };
  if (parsed.result.isError === true) return { ok: false, error: toolError(tool, joinText(parsed.result.content)) };
  return { ok: true, content: parsed.result.content };
}

/** tools/list reply -> descriptors or CAD_PROTOCOL_ERROR. */
export function toToolList(reply: JsonRpcSuccess | JsonRpcFailure, endpoint: CadEndpoint): { ok: true; tools: ToolDescriptor[] } | { ok: false; error: AppError } {
  if ('error' in reply) return { ok: false, error: rpcError(reply, 'tools/list') };
  const parsed = parseToolsList(reply.result);
  if (!parsed.ok) return { ok: false, error: protocolError(`tools/list from ${formatEndpoint(endpoint)} is not valid (${parsed.issue}).`, { issue: parsed.issue }) };
  return { ok: true, tools: parsed.tools };
}

function rpcError(reply: JsonRpcFailure, what: string): AppError {
  const { code, message, data } = reply.error;
  return protocolError(`${what} failed: ${message} (JSON-RPC ${code}).`, { rpcCode: code, rpcMessage: message, ...(data === undefined ? {} : { rpcData: data }) });
}

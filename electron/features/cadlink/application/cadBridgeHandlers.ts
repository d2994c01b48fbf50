import { AppError } from '../../../../shared/errors';
import type { ToolPolicy } from '../domain/policy/toolPolicy';
import type { ToolContent, ToolDescriptor, ToolResult } from '../domain/protocol/mcpTools';
import type { CadClient } from './cadClient';

/**
 * What `cadsight-cad-bridge` does with the two proxied MCP methods, independent of the SDK
 * (the composition root electron/host/cadBridge.ts binds these to the official MCP Server).
 * The bridge answers initialize/ping itself; only tools/list and tools/call reach the plugin.
 */
export interface CadBridgeHandlers {
  /**
   * The plugin's tools, minus those the session policy refuses (a read-only bridge does not
   * advertise write tools). Throws AppError CAD_NOT_CONNECTED (naming host:port and what to
   * start), CAD_DISCONNECTED, CAD_TIMEOUT or CAD_PROTOCOL_ERROR.
   */
  listTools(): Promise<ToolDescriptor[]>;
  /**
   * Proxies one call. Never throws: every failure (refused, plugin down, tool error, timeout,
   * CAD_RESULT_TOO_LARGE) becomes an `isError` result whose text starts with the CAD_* code, so an MCP client's model
   * can read what happened and what to do.
   */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
}

// MCP requires an inputSchema of type object; the plugin may omit it for argument-less tools.
const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

export interface CadBridgeDeps {
  client: CadClient;
  policy: ToolPolicy;
  /** Larger results become CAD_RESULT_TOO_LARGE (see DEFAULT_MAX_RESULT_BYTES). */
  maxResultBytes: number;
}

export function createCadBridgeHandlers(deps: CadBridgeDeps): CadBridgeHandlers {
  return {
    async listTools() {
      const tools = await deps.client.listTools();
      return tools
        .filter((tool) => deps.policy.check(tool.name).allowed)
        .map((tool) => ({ ...tool, inputSchema: tool.inputSchema?.type === 'object' ? tool.inputSchema : EMPTY_OBJECT_SCHEMA }));
    },
    async callTool(name, args, signal) {
      const result = await deps.client.callTool(name, args, signal ? { signal } : {});
      if (!result.ok) return failure(result.error);
      const bytes = serializedBytes(result.content);
      if (bytes > deps.maxResultBytes) {
        return failure(
          new AppError(
            'CAD_RESULT_TOO_LARGE',
            `${name} returned ${formatSize(bytes)}, more than this bridge passes to an MCP client over stdio (${formatSize(deps.maxResultBytes)}; the official SDK client buffers at most 10 MiB). Ask for a smaller result (e.g. a smaller screenshot), or raise CAD_BRIDGE_MAX_RESULT_BYTES if your client accepts more.`,
            { data: { tool: name, bytes, maxResultBytes: deps.maxResultBytes } },
          ),
        );
      }
      return { content: result.content };
    },
  };
}

function failure(error: AppError): ToolResult {
  return { content: [{ type: 'text', text: describeFailure(error) }], isError: true };
}

const utf8 = new TextEncoder();

/** Bytes the content occupies in the JSON-RPC reply: base64 is ASCII; text is measured escaped. */
function serializedBytes(content: readonly ToolContent[]): number {
  let total = 0;
  for (const block of content) total += block.type === 'image' ? block.data.length + block.mimeType.length + 40 : utf8.encode(JSON.stringify(block.text)).length + 24;
  return total;
}

const formatSize = (bytes: number): string => (bytes >= 100_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} KB`);

/** `[CODE] message`: a tool's own error text is kept verbatim inside the message. */
export function describeFailure(error: AppError): string {
  return `[${error.code}] ${error.message}`;
}

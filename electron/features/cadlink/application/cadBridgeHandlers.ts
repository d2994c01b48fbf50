import type { AppError } from '../../../../shared/errors';
import type { ToolPolicy } from '../domain/policy/toolPolicy';
import type { ToolDescriptor, ToolResult } from '../domain/protocol/mcpTools';
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
   * Proxies one call. Never throws: every failure (refused, plugin down, tool error, timeout)
   * becomes an `isError` result whose text starts with the CAD_* code, so an MCP client's model
   * can read what happened and what to do.
   */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
}

// MCP requires an inputSchema of type object; the plugin may omit it for argument-less tools.
const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

export function createCadBridgeHandlers(deps: { client: CadClient; policy: ToolPolicy }): CadBridgeHandlers {
  return {
    async listTools() {
      const tools = await deps.client.listTools();
      return tools
        .filter((tool) => deps.policy.check(tool.name).allowed)
        .map((tool) => ({ ...tool, inputSchema: tool.inputSchema?.type === 'object' ? tool.inputSchema : EMPTY_OBJECT_SCHEMA }));
    },
    async callTool(name, args, signal) {
      const result = await deps.client.callTool(name, args, signal ? { signal } : {});
      if (result.ok) return { content: result.content };
      return { content: [{ type: 'text', text: describeFailure(result.error) }], isError: true };
    },
  };
}

/** `[CODE] message`: a tool's own error text is kept verbatim inside the message. */
export function describeFailure(error: AppError): string {
  return `[${error.code}] ${error.message}`;
}

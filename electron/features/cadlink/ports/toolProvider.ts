import type { ToolDescriptor, ToolResult } from '../domain/protocol/mcpTools';

/**
 * Whatever answers tools/list and tools/call behind a cad_mcp_frame-compatible server: the
 * embedded DXF backend in the app, or a test peer. The TCP line server
 * (adapters/tcp/jsonRpcLineServer.ts) calls it serially per connection, as the plugin does on
 * the AutoCAD thread, so a write followed by a read on one connection is seen in order.
 */
export interface ToolProvider {
  /** Every tool this backend offers (read and write), with its JSON Schema input. */
  listTools(): Promise<ToolDescriptor[]>;
  /**
   * Runs one tool. Tool-level failures (unknown tool, bad arguments, nothing selected...) are
   * returned as `{ isError: true, content: [text] }`, exactly like the plugin. A thrown
   * AppError is answered as a JSON-RPC error -32603 carrying `{ code, message }` in `data`
   * (anything else thrown becomes INTERNAL_ERROR without its text, so no stack leaks).
   */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

// Public entry of the CadLink slice: the cad_mcp_frame protocol (framing, JSON-RPC, MCP tool
// shapes), the ToolProvider port and the TCP line server. Other slices and composition roots
// import only from here.
export { createLineFramer, encodeFrame, DEFAULT_MAX_FRAME_BYTES } from './domain/protocol/lineFramer';
export type { FrameItem, LineFramer, LineFramerOptions } from './domain/protocol/lineFramer';
export { JSON_RPC_ERROR, parseJsonRpcLine, classifyJsonRpcValue, idKey, makeRequest, makeSuccess, makeFailure } from './domain/protocol/jsonRpc';
export type {
  ClassifiedMessage,
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
} from './domain/protocol/jsonRpc';
export { parseToolResult, parseToolsList, joinText } from './domain/protocol/mcpTools';
export type { ToolContent, ToolDescriptor, ToolResult } from './domain/protocol/mcpTools';
export type { ToolProvider } from './ports/toolProvider';
export { startJsonRpcLineServer } from './adapters/tcp/jsonRpcLineServer';
export type { JsonRpcLineServer, JsonRpcLineServerOptions } from './adapters/tcp/jsonRpcLineServer';

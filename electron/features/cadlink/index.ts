// Public entry of the CadLink slice: the cad_mcp_frame protocol (framing, JSON-RPC, MCP tool
// shapes), the ToolProvider port and the TCP line server. Other slices and composition roots
// import only from here. The line framing itself is platform/framing (the MCP stdio servers share it).
export { createLineFramer, encodeFrame, DEFAULT_MAX_FRAME_BYTES } from '../../platform/framing/lineFramer';
export type { FrameItem, LineFramer, LineFramerOptions } from '../../platform/framing/lineFramer';
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
export { CAD_AUTH_METHOD, makeAuthNotification, tokenProblem } from './domain/protocol/authToken';
export { withCadToken } from './application/tokenSocket';

// Client side: errors, endpoint parsing, backoff, tool policy, capability map, CAD client.
export { parseEndpoint, formatEndpoint, describeHowToStart } from './domain/protocol/cadErrors';
export type { CadEndpoint } from './domain/protocol/cadErrors';
export { DEFAULT_BACKOFF, backoffDelayMs } from './domain/protocol/backoff';
export type { BackoffOptions } from './domain/protocol/backoff';
export { createToolPolicy, isWriteLikeToolName, WRITE_LIKE_TOOL_PATTERNS } from './domain/policy/toolPolicy';
export type { ToolPolicy, ToolPolicyMode, ToolPolicyOptions, PolicyDecision } from './domain/policy/toolPolicy';
export { BACKEND_PROFILES, CAD_CAPABILITIES, DEFAULT_READ_ONLY_WHITELIST, resolveCapabilities } from './domain/policy/capabilities';
export type { BackendProfile, CadBackendKind, CadCapability, ResolvedCapabilities } from './domain/policy/capabilities';
export type { CadSocket, CadSocketFactory } from './ports/cadSocket';
export type { Clock, RandomSource } from './ports/clock';
export { createCadClient } from './application/cadClient';
export type { CadClient, CadClientOptions, CadCallOptions, CadCallResult, CadClientStats } from './application/cadClient';
export type { CadConnectionState, CadConnectionStateEvent } from './application/cadConnection';
export { connectTcpSocket, createSystemClock } from './adapters/tcp/tcpSocket';
export { verifyConformance, formatConformanceTable } from './application/verifyConformance';
export type { ConformanceReport, ConformanceRow, VerifyConformanceOptions } from './application/verifyConformance';
export { CONFORMANCE_CHECKS } from './application/conformanceChecks';
export type { ConformanceCheck } from './application/conformanceChecks';
// Embedded DXF backend: serves a drawing of the drawing slice over the same tool surface as the
// AutoCAD plugin.
export { openDxfBackend } from './adapters/dxfFile/openDxfBackend';
export { createConfinedSaveLocator } from './adapters/savePolicy/confinedSavePath';
export type { SavePolicy } from './adapters/savePolicy/confinedSavePath';
export { createDxfToolProvider } from './application/dxfBackend/dxfToolProvider';
export type { DxfBackendDeps, DxfDrawingSink, DxfSaveLocator } from './application/dxfBackend/session';
export { createCadBridgeHandlers, describeFailure } from './application/cadBridgeHandlers';
export type { CadBridgeDeps, CadBridgeHandlers } from './application/cadBridgeHandlers';
export { parseCadBridgeConfig, CAD_BRIDGE_USAGE, DEFAULT_MAX_RESULT_BYTES } from './application/cadBridgeConfig';
export type { CadBridgeConfig } from './application/cadBridgeConfig';

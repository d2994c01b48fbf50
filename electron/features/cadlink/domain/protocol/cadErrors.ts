import { AppError } from '../../../../../shared/errors';

/**
 * The CAD_* errors of the CadLink client, built in one place so every path (client, verifier,
 * bridge) words them the same way and always says which endpoint and what to start.
 */

/** Where a cad_mcp_frame-compatible server listens. */
export interface CadEndpoint {
  host: string;
  port: number;
}

export function formatEndpoint(endpoint: CadEndpoint): string {
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}

/**
 * Parses "host:port" (IPv6 as "[::1]:8080"). Throws AppError CAD_BAD_ENDPOINT when the text is
 * not host:port or the port is not an integer in 1..65535.
 */
export function parseEndpoint(text: string): CadEndpoint {
  const match = /^(?:\[([^\]]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = match ? Number(match[3]) : NaN;
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new AppError('CAD_BAD_ENDPOINT', `"${text}" is not host:port (for example 127.0.0.1:8080).`, { data: { value: text } });
  }
  return { host, port };
}

/** What a user has to start when nothing listens. */
export function describeHowToStart(endpoint: CadEndpoint): string {
  return `Start AutoCAD with the cad_mcp_frame plugin loaded (it listens on ${formatEndpoint(endpoint)}), or serve a DXF file with \`cadsight dxf-server <file.dxf> --port ${endpoint.port}\`.`;
}

export function notConnectedError(endpoint: CadEndpoint, reason: string): AppError {
  return new AppError('CAD_NOT_CONNECTED', `Cannot connect to the CAD plugin at ${formatEndpoint(endpoint)} (${reason}). ${describeHowToStart(endpoint)}`, {
    retryable: true,
    data: { ...endpoint, reason },
  });
}

export function disconnectedError(endpoint: CadEndpoint, reason: string): AppError {
  return new AppError('CAD_DISCONNECTED', `The connection to the CAD plugin at ${formatEndpoint(endpoint)} was lost (${reason}); the call may or may not have run.`, {
    retryable: true,
    data: { ...endpoint, reason },
  });
}

export function frameTooLargeError(endpoint: CadEndpoint, maxFrameBytes: number, direction: 'request' | 'reply'): AppError {
  return new AppError('CAD_FRAME_TOO_LARGE', `A ${direction} to/from ${formatEndpoint(endpoint)} exceeds the frame limit of ${maxFrameBytes} bytes.`, {
    data: { ...endpoint, maxFrameBytes, direction },
  });
}

export function timeoutError(endpoint: CadEndpoint, method: string, timeoutMs: number): AppError {
  return new AppError('CAD_TIMEOUT', `${method} got no reply from ${formatEndpoint(endpoint)} within ${timeoutMs} ms; the call may still run in CAD.`, {
    retryable: true,
    data: { ...endpoint, method, timeoutMs },
  });
}

export function abortedError(method: string): AppError {
  return new AppError('CAD_ABORTED', `${method} was cancelled by the caller; the call may still run in CAD.`, { data: { method } });
}

export function protocolError(message: string, data: Record<string, unknown>): AppError {
  return new AppError('CAD_PROTOCOL_ERROR', message, { data });
}

export function toolError(tool: string, text: string): AppError {
  return new AppError('CAD_TOOL_ERROR', text.length > 0 ? `${tool}: ${text}` : `${tool} failed without a message.`, { data: { tool, text } });
}

export function refusedError(tool: string, reason: string, mode: string): AppError {
  return new AppError('CAD_TOOL_REFUSED', `Refused: ${reason} The call was not sent to CAD.`, { data: { tool, mode } });
}

import { AppError } from '../../../shared/errors';
import {
  BACKEND_PROFILES,
  connectTcpSocket,
  createCadClient,
  createSystemClock,
  createToolPolicy,
  type CadClient,
  type CadConnectionStateEvent,
  type ToolProvider,
} from '../../features/cadlink/index';
import type { DrawingCapability, DrawingSource, DrawingWriteTarget } from '../../features/review/index';
import type { Logger } from '../../platform/log/types';

/**
 * Adapters between CadLink (tool providers and the TCP client) and the review slice's
 * DrawingSource / DrawingWriteTarget ports, as the app composes them.
 */

type CapabilityTools = Readonly<Partial<Record<DrawingCapability, string>>>;

/** The read-only view of an in-process tool provider: the policy refuses writes before the provider sees them. */
export function readOnlyProviderSource(label: string, provider: ToolProvider, capabilityTools: CapabilityTools): DrawingSource {
  const policy = createToolPolicy({ mode: 'read-only' });
  return {
    label,
    capabilityTools,
    listTools: () => provider.listTools(),
    async callTool(name, args) {
      const decision = policy.check(name);
      if (!decision.allowed) throw new AppError('CAD_TOOL_REFUSED', decision.reason, { data: { tool: name } });
      return provider.callTool(name, args);
    },
  };
}

/**
 * A CadClient seen as the review's port: `isError` stays data (the review records it), every
 * other failure (refused, disconnected, timeout) is thrown as its typed AppError.
 */
export function clientDrawingPort(label: string, client: CadClient, capabilityTools: CapabilityTools): DrawingSource {
  return {
    label,
    capabilityTools,
    listTools: () => client.listTools(),
    async callTool(name, args) {
      const result = await client.callTool(name, args);
      if (result.ok) return { content: result.content };
      if (result.error.code === 'CAD_TOOL_ERROR') return { content: [{ type: 'text', text: result.error.message }], isError: true };
      throw result.error;
    },
  };
}

/** The DXF backend's capability map. */
export const DXF_CAPABILITIES: CapabilityTools = BACKEND_PROFILES['cadsight-dxf'].capabilities;

/**
 * The plugin's capability map without `save`: in AutoCAD the leaders land in the open drawing
 * and saving it is the user's decision, not ours.
 */
export const AUTOCAD_CAPABILITIES: CapabilityTools = Object.fromEntries(
  Object.entries(BACKEND_PROFILES.cad_mcp_frame.capabilities).filter(([capability]) => capability !== 'save'),
);

/** An AutoCAD connection: a kept-alive read-only client for the review, write clients on demand. */
export interface AutocadLink {
  readonly label: string;
  readonly source: DrawingSource;
  readonly client: CadClient;
  /** A read-write connection for one approved write; close it afterwards. */
  openWriter(): { target: DrawingWriteTarget; close(): void };
  close(): void;
}

/**
 * Connects to the plugin at host:port and keeps the read-only connection up (reconnecting with
 * backoff after drops; every state change goes to `onState`). Errors: CAD_NOT_CONNECTED when
 * nothing answers on the first attempt (the client is closed again).
 */
export async function connectAutocad(
  endpoint: { host: string; port: number },
  onState: (event: CadConnectionStateEvent) => void,
  log: Logger,
): Promise<AutocadLink> {
  const label = `${endpoint.host}:${endpoint.port}`;
  const makeClient = (mode: 'read-only' | 'read-write'): CadClient =>
    createCadClient({ ...endpoint, socketFactory: connectTcpSocket, clock: createSystemClock(), random: Math.random, policy: createToolPolicy({ mode }), log });
  const client = makeClient('read-only');
  const unsubscribe = client.onStateChange(onState);
  try {
    await client.connect();
  } catch (error) {
    unsubscribe();
    client.close();
    throw error;
  }
  return {
    label,
    client,
    source: clientDrawingPort(label, client, AUTOCAD_CAPABILITIES),
    openWriter() {
      const writer = makeClient('read-write');
      return { target: clientDrawingPort(label, writer, AUTOCAD_CAPABILITIES), close: () => writer.close() };
    },
    close() {
      unsubscribe();
      client.close();
    },
  };
}

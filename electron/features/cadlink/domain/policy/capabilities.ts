import type { ToolDescriptor } from '../protocol/mcpTools';

/**
 * Capability map: which tool of a backend provides each thing the review pipeline needs, so
 * the pipeline asks for "screenshot" or "frames" and works the same against the AutoCAD plugin
 * and against CadSight's DXF backend. A profile names tools; `resolveCapabilities` checks them
 * against the live tools/list, because a plugin build may lack or rename some.
 */

export const CAD_CAPABILITIES = [
  'screenshot',
  'frames',
  'texts',
  'dimensions',
  'layers',
  'entities',
  'drawingInfo',
  'zeroLength',
  'duplicates',
  'leaderWrite',
  'save',
] as const;

/** One thing the review pipeline needs from a CAD backend. */
export type CadCapability = (typeof CAD_CAPABILITIES)[number];

/** The backends CadSight knows: the AutoCAD cad_mcp_frame plugin and the embedded DXF backend. */
export type CadBackendKind = 'cad_mcp_frame' | 'cadsight-dxf';

export interface BackendProfile {
  readonly kind: CadBackendKind;
  /** Tools that only read the drawing; their union is the default read-only whitelist. */
  readonly readTools: readonly string[];
  /** Tool name providing each capability. */
  readonly capabilities: Readonly<Record<CadCapability, string>>;
}

const DXF_READ_TOOLS = [
  'get_drawing_info',
  'get_layers',
  'get_entities',
  'get_entity',
  'get_texts',
  'get_dimensions',
  'get_blocks',
  'find_frames',
  'find_zero_length',
  'find_duplicate_entities',
  'get_screenshot',
] as const;

const SHARED_CAPABILITY_TOOLS: Readonly<Record<CadCapability, string>> = {
  screenshot: 'get_screenshot',
  frames: 'find_frames',
  texts: 'get_texts',
  dimensions: 'get_dimensions',
  layers: 'get_layers',
  entities: 'get_entities',
  drawingInfo: 'get_drawing_info',
  zeroLength: 'find_zero_length',
  duplicates: 'find_duplicate_entities',
  leaderWrite: 'add_leader_annotation',
  save: 'save_drawing',
};

/**
 * Defaults per backend. The plugin names get_drawing_info, get_layers, get_dimensions,
 * find_zero_length, find_duplicate_entities and add_leader_annotation are the ones recorded in
 * the cad_mcp_frame design notes; the DXF backend deliberately uses the same names for the
 * rest, and a plugin build that differs is handled by overrides in `resolveCapabilities`.
 */
export const BACKEND_PROFILES: Readonly<Record<CadBackendKind, BackendProfile>> = Object.freeze({
  cad_mcp_frame: Object.freeze({ kind: 'cad_mcp_frame', readTools: Object.freeze([...DXF_READ_TOOLS]), capabilities: Object.freeze({ ...SHARED_CAPABILITY_TOOLS }) }),
  'cadsight-dxf': Object.freeze({ kind: 'cadsight-dxf', readTools: Object.freeze([...DXF_READ_TOOLS]), capabilities: Object.freeze({ ...SHARED_CAPABILITY_TOOLS }) }),
});

/** Union of the read tools of every known backend: the default read-only whitelist. */
export const DEFAULT_READ_ONLY_WHITELIST: readonly string[] = Object.freeze([...new Set(Object.values(BACKEND_PROFILES).flatMap((profile) => profile.readTools))]);

export interface ResolvedCapabilities {
  backend: CadBackendKind;
  /** Capability -> tool name, only for tools the backend actually announced. */
  available: Partial<Record<CadCapability, string>>;
  /** Capabilities whose tool is not in tools/list (the pipeline degrades or reports them). */
  missing: CadCapability[];
}

/**
 * Matches a profile (plus per-installation overrides, e.g. a plugin that calls its screenshot
 * tool "capture_view") against the tools the backend announced.
 */
export function resolveCapabilities(
  backend: CadBackendKind,
  tools: readonly ToolDescriptor[],
  overrides: Partial<Record<CadCapability, string>> = {},
): ResolvedCapabilities {
  const announced = new Set(tools.map((tool) => tool.name));
  const available: Partial<Record<CadCapability, string>> = {};
  const missing: CadCapability[] = [];
  for (const capability of CAD_CAPABILITIES) {
    const toolName = overrides[capability] ?? BACKEND_PROFILES[backend].capabilities[capability];
    if (announced.has(toolName)) available[capability] = toolName;
    else missing.push(capability);
  }
  return { backend, available, missing };
}

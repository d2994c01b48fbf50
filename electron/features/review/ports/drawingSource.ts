/**
 * The drawing a review reads from: the AutoCAD plugin through CadLink's read-only client, or the
 * embedded DXF backend. Structurally the MCP tools/list + tools/call pair, so CadLink's
 * ToolProvider and its policy-guarded client fit without adapters.
 */

/** One content block of a tool result (MCP shape): text (JSON payloads) or a base64 image. */
export type DrawingToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tools/call result; `isError: true` means the tool ran and failed (the text says why). */
export interface DrawingToolResult {
  content: DrawingToolContent[];
  isError?: boolean;
}

export interface DrawingToolInfo {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

/** What the review needs from a backend; each maps to one tool name of that backend. */
export type DrawingCapability =
  | 'screenshot'
  | 'frames'
  | 'texts'
  | 'dimensions'
  | 'layers'
  | 'entities'
  | 'drawingInfo'
  | 'zeroLength'
  | 'duplicates'
  | 'leaderWrite'
  | 'save';

export interface DrawingSource {
  /** Human label for reports and logs (file name or host:port); never a secret. */
  readonly label: string;
  /** Which backend tool provides each capability (the backend profile; checked against listTools). */
  readonly capabilityTools: Readonly<Partial<Record<DrawingCapability, string>>>;
  /** Tools the backend announces. Errors: CAD_* connection errors from the link (retryable ones marked). */
  listTools(): Promise<DrawingToolInfo[]>;
  /**
   * Calls one tool. The evidence phase gets a source whose policy refuses every write tool
   * before it reaches the wire (CAD_TOOL_REFUSED); tool failures come back as `isError`.
   */
  callTool(name: string, args: Record<string, unknown>): Promise<DrawingToolResult>;
}

/**
 * The write side used only by the annotation writer (after user approval). Separate from
 * DrawingSource so the evidence phase can never be handed a write-capable link by mistake.
 */
export interface DrawingWriteTarget {
  readonly label: string;
  readonly capabilityTools: Readonly<Partial<Record<DrawingCapability, string>>>;
  callTool(name: string, args: Record<string, unknown>): Promise<DrawingToolResult>;
}

import { AppError } from '../../../../shared/errors';
import type { DrawingCapability, DrawingSource, DrawingToolInfo } from '../ports/drawingSource';
import { WHOLE_DRAWING_FRAME_ID, type Frame } from '../domain/frame';
import type { BBox } from '../domain/geometry';
import { callJsonTool, learnToolParams, toolFor, type ToolCallMeter } from './toolCalls';
import { decodeExtents, decodeFrames } from './payloadDecoders';

const ALL_CAPABILITIES: DrawingCapability[] = ['screenshot', 'frames', 'texts', 'dimensions', 'layers', 'entities', 'drawingInfo', 'zeroLength', 'duplicates', 'leaderWrite', 'save'];

/** What a review will do: printed by --plan-only, stored with the run. */
export interface ReviewPlan {
  source: string;
  /** Tool names the backend announced. */
  tools: string[];
  /** The announced tools with their input schemas (offered to the model in LLM runs). */
  toolInfos: DrawingToolInfo[];
  /** Capability → tool for what the backend offers. */
  capabilities: Partial<Record<DrawingCapability, string>>;
  /** Capabilities the backend lacks (their evidence is skipped and reported). */
  missing: DrawingCapability[];
  /** Frames to review, in drawing order. */
  frames: Frame[];
  /** Every frame the backend found (before a --frames filter): what "outside every frame" is judged against. */
  allFrames: Frame[];
  /** How many frames the backend found before a --frames filter. */
  framesFound: number;
}

export function wholeDrawingFrame(bbox: BBox): Frame {
  return {
    id: WHOLE_DRAWING_FRAME_ID,
    label: 'Whole drawing',
    bbox,
    layout: 'Model',
    sheetName: null,
    unitsPerPaperMm: null,
    titleBlock: {},
    titleBlockAnchors: {},
    origin: 'whole-drawing',
  };
}

/**
 * Connects (listTools), resolves capabilities, finds frames — or treats the whole drawing as one
 * frame when none is found — and applies the --frames filter.
 * Errors: REVIEW_FRAME_NOT_FOUND (a requested id does not exist), REVIEW_EMPTY_DRAWING (no frame and
 * no extents), REVIEW_SOURCE_* and CAD_* from the link.
 */
export async function planReview(source: DrawingSource, meter: ToolCallMeter, frameFilter: readonly string[] | null): Promise<ReviewPlan> {
  const announcedTools = await source.listTools();
  learnToolParams(meter, announcedTools);
  const tools = announcedTools.map((t) => t.name);
  const announced = new Set(tools);
  const capabilities: Partial<Record<DrawingCapability, string>> = {};
  const missing: DrawingCapability[] = [];
  for (const capability of ALL_CAPABILITIES) {
    const tool = toolFor(source, announced, capability);
    if (tool) capabilities[capability] = tool;
    else missing.push(capability);
  }

  let frames: Frame[] = capabilities.frames ? decodeFrames(capabilities.frames, await callJsonTool(source, meter, capabilities.frames, {})) : [];
  if (frames.length === 0) {
    const extents = capabilities.drawingInfo ? decodeExtents(capabilities.drawingInfo, await callJsonTool(source, meter, capabilities.drawingInfo, {})) : undefined;
    if (!extents) throw new AppError('REVIEW_EMPTY_DRAWING', `${source.label}: no frame found and the drawing reports no extents (is it empty?).`);
    frames = [wholeDrawingFrame(extents)];
  }
  const framesFound = frames.length;
  const allFrames = frames;
  if (frameFilter && frameFilter.length > 0) {
    const known = new Set(frames.map((f) => f.id));
    const unknown = frameFilter.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new AppError('REVIEW_FRAME_NOT_FOUND', `Unknown frame id(s): ${unknown.join(', ')}. Known: ${[...known].join(', ')}.`, { data: { unknown, known: [...known] } });
    }
    frames = frames.filter((f) => frameFilter.includes(f.id));
  }
  return { source: source.label, tools, toolInfos: announcedTools, capabilities, missing, frames, allFrames, framesFound };
}

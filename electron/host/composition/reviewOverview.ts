import { z } from 'zod';
import type { drawingOverviewSchema, drawingFrameViewSchema, imageViewSchema } from '../../../shared/ipc/contracts/review';
import { AppError } from '../../../shared/errors';
import { createToolPolicy, isWriteLikeToolName } from '../../features/cadlink/index';
import { newMeter, planReview, type DrawingSource, type Frame } from '../../features/review/index';

type Overview = z.input<typeof drawingOverviewSchema>;
type FrameView = z.input<typeof drawingFrameViewSchema>;

/**
 * What the Review view shows about a drawing before a run: the tools (read/write), header
 * facts, layers and frames, read through the same read-only source the review uses.
 */

export function frameView(frame: Frame): FrameView {
  const titleBlock: Record<string, string> = {};
  for (const [field, value] of Object.entries(frame.titleBlock)) if (value !== undefined) titleBlock[field] = value;
  return { id: frame.id, label: frame.label, layout: frame.layout, sheetName: frame.sheetName, bbox: frame.bbox, titleBlock, origin: frame.origin };
}

// Lenient on purpose: the AutoCAD plugin and the DXF backend fill these differently; what is
// missing is shown as unknown, and a reply of another shape is reported as a warning.
const infoPayload = z.object({
  version: z.string().optional(),
  units: z.union([z.string(), z.number()]).optional(),
  codePage: z.string().optional(),
  layouts: z.array(z.object({ name: z.string(), entityCount: z.number().int().optional() })).optional(),
  problems: z.array(z.unknown()).optional(),
});
const layersPayload = z.object({
  layers: z.array(
    z.object({
      name: z.string(),
      color: z.number().int().optional(),
      on: z.boolean().optional(),
      frozen: z.boolean().optional(),
      locked: z.boolean().optional(),
      entityCount: z.number().int().optional(),
    }),
  ),
});

/** Calls a tool whose result is one JSON text block. Errors: CAD_TOOL_ERROR (isError), REVIEW_SOURCE_BAD_RESULT. */
export async function callJson(source: DrawingSource, tool: string, args: Record<string, unknown>): Promise<unknown> {
  const result = await source.callTool(tool, args);
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (result.isError) throw new AppError('CAD_TOOL_ERROR', `${tool}: ${text.slice(0, 300)}`, { data: { tool } });
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('REVIEW_SOURCE_BAD_RESULT', `${tool} did not answer with JSON.`, { data: { tool } });
  }
}

async function readInfo(source: DrawingSource, tool: string | undefined, warnings: string[]): Promise<Overview['info']> {
  if (!tool) return null;
  const parsed = infoPayload.safeParse(await callJson(source, tool, {}));
  if (!parsed.success) {
    warnings.push(`${tool}: unexpected reply shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return null;
  }
  const layouts = (parsed.data.layouts ?? []).map((l) => ({ name: l.name, entityCount: l.entityCount ?? 0 }));
  return {
    version: parsed.data.version ?? null,
    units: parsed.data.units === undefined ? null : String(parsed.data.units),
    codePage: parsed.data.codePage ?? null,
    entityCount: layouts.reduce((sum, l) => sum + l.entityCount, 0),
    layouts,
    problems: (parsed.data.problems ?? []).map((p) => (typeof p === 'string' ? p : JSON.stringify(p))),
  };
}

async function readLayers(source: DrawingSource, tool: string | undefined, warnings: string[]): Promise<Overview['layers']> {
  if (!tool) return [];
  const parsed = layersPayload.safeParse(await callJson(source, tool, {}));
  if (!parsed.success) {
    warnings.push(`${tool}: unexpected reply shape (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    return [];
  }
  return parsed.data.layers.map((l) => ({
    name: l.name,
    color: l.color ?? null,
    on: l.on ?? true,
    frozen: l.frozen ?? false,
    locked: l.locked ?? false,
    entityCount: l.entityCount ?? null,
  }));
}

/**
 * Reads the overview. Errors: CAD_* from the link, REVIEW_EMPTY_DRAWING (no frame and no extents),
 * REVIEW_SOURCE_BAD_RESULT.
 */
export async function readOverview(source: DrawingSource, base: Pick<Overview, 'source' | 'connection'>): Promise<Overview> {
  const policy = createToolPolicy({ mode: 'read-only' });
  const announced = await source.listTools();
  const tools = announced.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    access: policy.check(t.name).allowed ? ('read' as const) : isWriteLikeToolName(t.name) ? ('write' as const) : ('other' as const),
  }));
  const plan = await planReview(source, newMeter(), null);
  const warnings: string[] = [];
  const info = await readInfo(source, plan.capabilities.drawingInfo, warnings);
  const layers = await readLayers(source, plan.capabilities.layers, warnings);
  // Saving is not evidence: AutoCAD has no save tool on purpose (the user saves there).
  const missingCapabilities = plan.missing.filter((capability) => capability !== 'save');
  return { ...base, tools, info, layers, frames: plan.frames.map(frameView), missingCapabilities, warnings };
}

/**
 * Renders one region through the backend's screenshot tool (the same arguments the review uses).
 * Errors: REVIEW_SOURCE_BAD_RESULT (no image part), CAD_TOOL_ERROR, CAD_*.
 */
export async function renderRegion(
  source: DrawingSource,
  tool: string,
  bbox: { minX: number; minY: number; maxX: number; maxY: number },
  maxEdge: number,
  layout: string,
): Promise<z.input<typeof imageViewSchema>> {
  // The frame's own layout: a paper-space frame's box means nothing in model space.
  const result = await source.callTool(tool, { layout, bbox: [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY], max_edge: maxEdge });
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (result.isError) throw new AppError('CAD_TOOL_ERROR', `${tool}: ${text.slice(0, 300)}`, { data: { tool } });
  const image = result.content.find((c) => c.type === 'image');
  if (!image || image.type !== 'image' || image.mimeType !== 'image/png') throw new AppError('REVIEW_SOURCE_BAD_RESULT', `${tool} returned no PNG image.`, { data: { tool } });
  return { dataBase64: image.data, mimeType: 'image/png', ...pngSize(Buffer.from(image.data, 'base64')) };
}

/** Width and height from a PNG's IHDR chunk. Errors: REVIEW_SOURCE_BAD_RESULT (not a PNG). */
export function pngSize(png: Uint8Array): { widthPx: number; heightPx: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((b, i) => png[i] !== b)) throw new AppError('REVIEW_SOURCE_BAD_RESULT', 'The image is not a PNG.');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { widthPx: view.getUint32(16), heightPx: view.getUint32(20) };
}

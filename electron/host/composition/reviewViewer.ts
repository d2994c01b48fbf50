import type { z } from 'zod';
import type { entityViewSchema, reviewChannels, viewImageSchema } from '../../../shared/ipc/contracts/review';
import { AppError } from '../../../shared/errors';
import type { DrawingSource } from '../../features/review/index';
import type { HandlerTable } from '../../platform/ipc/router';
import type { OpenDrawing } from './reviewDrawings';
import { callJson, pngSize } from './reviewOverview';

type Box = { minX: number; minY: number; maxX: number; maxY: number };
type EntityView = z.input<typeof entityViewSchema>;
type ViewerChannels = Pick<typeof reviewChannels, 'reviewViewImage' | 'reviewPickEntities' | 'reviewGetEntity'>;

/** The entity lookup tool of both backends (not a review capability: the review reads entities in bulk). */
const ENTITY_TOOL = 'get_entity';
/** A click meets few entities; the inspector lists the nearest ones. */
const PICK_LIMIT = 20;
/** Longest text kept per property (a polyline's vertices, an MTEXT body). */
const PROPERTY_CHARS = 300;
const SHOWN_ELSEWHERE = new Set(['handle', 'type', 'layer', 'bbox']);

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
function asBox(v: unknown): Box | null {
  if (!Array.isArray(v) || v.length !== 4 || !v.every(num)) return null;
  const [minX, minY, maxX, maxY] = v as [number, number, number, number];
  return maxX >= minX && maxY >= minY ? { minX, minY, maxX, maxY } : null;
}

/** An entity JSON object of get_entity/get_entities as the inspector's flat view. */
export function entityView(raw: unknown): EntityView | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  if (typeof record.handle !== 'string' || typeof record.type !== 'string') return null;
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    if (SHOWN_ELSEWHERE.has(key) || value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    properties[key] = text.length > PROPERTY_CHARS ? `${text.slice(0, PROPERTY_CHARS)}…` : text;
  }
  return { handle: record.handle, type: record.type, layer: typeof record.layer === 'string' ? record.layer : '', bbox: asBox(record.bbox), properties };
}

const centre = (b: Box) => ({ x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 });
const area = (b: Box) => (b.maxX - b.minX) * (b.maxY - b.minY);

/** Whether a tool announces an argument (the AutoCAD plugin may lack the viewer's extras). */
async function toolAccepts(source: DrawingSource, tool: string, argument: string): Promise<boolean> {
  const info = (await source.listTools()).find((t) => t.name === tool);
  const properties = info?.inputSchema?.properties;
  return typeof properties === 'object' && properties !== null && argument in properties;
}

/**
 * Renders a layout region through the screenshot tool and reads the region the picture really
 * covers from its transform (the backend adds a margin). Errors: REVIEW_SCREENSHOT_UNSUPPORTED,
 * REVIEW_LAYER_FILTER_UNSUPPORTED, REVIEW_SOURCE_BAD_RESULT, CAD_TOOL_ERROR, CAD_*.
 */
export async function renderView(
  drawing: OpenDrawing,
  request: { layout: string; bbox?: Box; maxEdge: number; hiddenLayers: string[] },
): Promise<z.input<typeof viewImageSchema>> {
  const { source } = drawing;
  const tool = source.capabilityTools.screenshot;
  if (!tool) throw new AppError('REVIEW_SCREENSHOT_UNSUPPORTED', `${drawing.descriptor.label} offers no screenshot tool.`);
  if (request.hiddenLayers.length > 0 && !(await toolAccepts(source, tool, 'hidden_layers'))) {
    throw new AppError('REVIEW_LAYER_FILTER_UNSUPPORTED', `${tool} of ${drawing.descriptor.label} cannot hide layers; show all layers to view this drawing.`, { data: { tool } });
  }
  const args: Record<string, unknown> = { layout: request.layout, max_edge: request.maxEdge };
  if (request.bbox) args.bbox = [request.bbox.minX, request.bbox.minY, request.bbox.maxX, request.bbox.maxY];
  if (request.hiddenLayers.length > 0) args.hidden_layers = request.hiddenLayers;
  const result = await source.callTool(tool, args);
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (result.isError) throw new AppError('CAD_TOOL_ERROR', `${tool}: ${text.slice(0, 300)}`, { data: { tool } });
  const image = result.content.find((c) => c.type === 'image');
  if (!image || image.type !== 'image' || image.mimeType !== 'image/png') throw new AppError('REVIEW_SOURCE_BAD_RESULT', `${tool} returned no PNG image.`, { data: { tool } });
  let region: Box | null = null;
  try {
    region = asBox((JSON.parse(text) as { drawingBbox?: unknown }).drawingBbox);
  } catch {
    region = null;
  }
  // Without a transform only an exact request can be placed; a whole-layout picture cannot.
  region ??= request.bbox ?? null;
  if (!region) throw new AppError('REVIEW_SOURCE_BAD_RESULT', `${tool} did not say which region its picture shows.`, { data: { tool } });
  return { image: { dataBase64: image.data, mimeType: 'image/png', ...pngSize(Buffer.from(image.data, 'base64')) }, layout: request.layout, region };
}

/** Handlers of the viewer channels: pictures of layout regions, picking and entity lookup. */
export function createViewerHandlers(requireDrawing: () => OpenDrawing): HandlerTable<ViewerChannels> {
  const requireTool = async (drawing: OpenDrawing, tool: string | undefined): Promise<string> => {
    if (tool && (await drawing.source.listTools()).some((t) => t.name === tool)) return tool;
    throw new AppError('REVIEW_PICK_UNSUPPORTED', `${drawing.descriptor.label} offers no tool to look entities up.`);
  };
  return {
    reviewViewImage: (input) => renderView(requireDrawing(), input),
    async reviewPickEntities(input) {
      const drawing = requireDrawing();
      const tool = await requireTool(drawing, drawing.source.capabilityTools.entities);
      const { bbox } = input;
      const reply = (await callJson(drawing.source, tool, { layout: input.layout, bbox: [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY], limit: 500 })) as { entities?: unknown[]; total?: unknown };
      const click = centre(bbox);
      const found = (reply.entities ?? []).map(entityView).filter((e): e is EntityView => e !== null);
      // Nearest centre first, then the smaller one: a click on a line inside a frame means the line.
      const rank = (e: EntityView) => (e.bbox ? Math.hypot(centre(e.bbox).x - click.x, centre(e.bbox).y - click.y) + Math.sqrt(area(e.bbox)) : Number.POSITIVE_INFINITY);
      found.sort((a, b) => rank(a) - rank(b));
      return { entities: found.slice(0, PICK_LIMIT), total: num(reply.total) ? reply.total : found.length };
    },
    async reviewGetEntity(input) {
      const drawing = requireDrawing();
      const tool = await requireTool(drawing, ENTITY_TOOL);
      const view = entityView(await callJson(drawing.source, tool, { handle: input.handle }));
      if (!view) throw new AppError('REVIEW_SOURCE_BAD_RESULT', `${tool} answered without a handle and type.`, { data: { tool } });
      return view;
    },
  };
}

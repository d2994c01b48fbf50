import type { DrawingSource } from '../ports/drawingSource';
import type { DrawingData } from '../domain/drawingData';
import type { SheetData } from '../domain/sheetEvidence';
import type { DimensionItem, EntitySummary, TextItem } from '../domain/evidence';
import { callJsonTool, type ToolCallMeter } from './toolCalls';
import { decodeDimensions, decodeDuplicates, decodeEntities, decodeLayers, decodeProblems, decodeTexts, decodeZeroLength } from './payloadDecoders';
import type { ReviewPlan } from './plan';
import { sheetOf, sheetReadArgs, sheetSpaceArgs } from '../domain/sheet';

/** Page size and caps of drawing-wide listings: enough for large sheets, bounded for huge ones. */
export const LISTING_PAGE = 5000;
export const MAX_LISTED_ENTITIES = 200_000;
export const MAX_LISTED_TEXTS = 50_000;

/**
 * Reads a paged listing until the backend's total (or the cap) is reached. A backend that reports
 * no total answered everything in one page.
 */
export async function readPaged<T>(
  fetchPage: (offset: number, limit: number) => Promise<{ items: T[]; total: number | undefined }>,
  cap: number,
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  for (;;) {
    const page = await fetchPage(items.length, LISTING_PAGE);
    items.push(...page.items);
    if (page.total === undefined || page.items.length === 0 || items.length >= page.total) return { items, truncated: false };
    if (items.length >= cap) return { items: items.slice(0, cap), truncated: true };
  }
}

/**
 * Reads entities, texts, dimensions and the detectors once for the whole drawing; each frame takes
 * its share by location (frameEvidenceFrom), so per-frame work is only screenshots and review.
 * A capability the backend lacks yields empty evidence (the plan lists it as missing).
 */
export async function readDrawingData(source: DrawingSource, plan: ReviewPlan, meter: ToolCallMeter): Promise<DrawingData> {
  const caps = plan.capabilities;
  const entities = caps.entities
    ? await readPaged<EntitySummary>(async (offset, limit) => {
        const page = decodeEntities(caps.entities!, await callJsonTool(source, meter, caps.entities!, { offset, limit }));
        return { items: page.entities, total: page.total };
      }, MAX_LISTED_ENTITIES)
    : { items: [], truncated: false };
  const texts = caps.texts
    ? await readPaged<TextItem>(async (offset, limit) => {
        const page = decodeTexts(caps.texts!, await callJsonTool(source, meter, caps.texts!, { offset, limit }));
        return { items: page.texts, total: page.total };
      }, MAX_LISTED_TEXTS)
    : { items: [], truncated: false };
  const dimensions = caps.dimensions
    ? await readPaged<DimensionItem>(async (offset, limit) => {
        const page = decodeDimensions(caps.dimensions!, await callJsonTool(source, meter, caps.dimensions!, { offset, limit }));
        return { items: page.dimensions, total: page.total };
      }, MAX_LISTED_TEXTS)
    : { items: [], truncated: false };
  const zeroLength = caps.zeroLength ? decodeZeroLength(caps.zeroLength, await callJsonTool(source, meter, caps.zeroLength, {})) : [];
  const duplicates = caps.duplicates ? decodeDuplicates(caps.duplicates, await callJsonTool(source, meter, caps.duplicates, {})) : [];
  const layers = caps.layers ? decodeLayers(caps.layers, await callJsonTool(source, meter, caps.layers, {})) : [];
  const problems = caps.drawingInfo ? decodeProblems(caps.drawingInfo, await callJsonTool(source, meter, caps.drawingInfo, {})) : [];
  const sheets = await readSheets(source, plan, meter);
  return {
    ...(Object.keys(sheets).length > 0 ? { sheets } : {}),
    entities: entities.items,
    entitiesTruncated: entities.truncated,
    texts: texts.items,
    dimensions: dimensions.items,
    zeroLength,
    duplicates,
    layers,
    problems,
  };
}

/**
 * What each paper sheet holding a frame shows: its entities, texts and dimensions with the model
 * space its viewports show, read in the sheet's space (sheetReadArgs; a backend that does not
 * declare those inputs answers with the layout's own content, and they are not sent).
 */
async function readSheets(source: DrawingSource, plan: ReviewPlan, meter: ToolCallMeter): Promise<Record<string, SheetData>> {
  const caps = plan.capabilities;
  const sheets: Record<string, SheetData> = {};
  for (const frame of plan.frames) {
    const sheet = sheetOf(frame);
    if (sheet.space !== 'paper' || sheets[sheet.layout]) continue;
    const args = sheetReadArgs(sheet);
    // A tool that announces no `layout` input would answer with model space in model coordinates: never sheet evidence.
    const reads = (tool: string | undefined): tool is string => tool !== undefined && (meter.declared.get(tool)?.has('layout') ?? true);
    const entities = reads(caps.entities)
      ? await readPaged<EntitySummary>(async (offset, limit) => {
          const page = decodeEntities(caps.entities!, await callJsonTool(source, meter, caps.entities!, { ...args, offset, limit }));
          return { items: page.entities, total: page.total };
        }, MAX_LISTED_ENTITIES)
      : { items: [] };
    const texts = reads(caps.texts)
      ? await readPaged<TextItem>(async (offset, limit) => {
          const page = decodeTexts(caps.texts!, await callJsonTool(source, meter, caps.texts!, { ...args, offset, limit }));
          return { items: page.texts, total: page.total };
        }, MAX_LISTED_TEXTS)
      : { items: [] };
    const dimensions = reads(caps.dimensions)
      ? await readPaged<DimensionItem>(async (offset, limit) => {
          const page = decodeDimensions(caps.dimensions!, await callJsonTool(source, meter, caps.dimensions!, { ...args, offset, limit }));
          return { items: page.dimensions, total: page.total };
        }, MAX_LISTED_TEXTS)
      : { items: [] };
    // The detectors read model space drawing-wide; the layout's own strokes are checked here, in its own space.
    const own = sheetSpaceArgs(sheet);
    const zeroLength = reads(caps.zeroLength) ? decodeZeroLength(caps.zeroLength, await callJsonTool(source, meter, caps.zeroLength, own)) : [];
    const duplicates = reads(caps.duplicates) ? decodeDuplicates(caps.duplicates, await callJsonTool(source, meter, caps.duplicates, own)) : [];
    sheets[sheet.layout] = { entities: entities.items, texts: texts.items, dimensions: dimensions.items, zeroLength, duplicates };
  }
  return sheets;
}

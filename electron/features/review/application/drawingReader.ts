import type { DrawingSource } from '../ports/drawingSource';
import type { DrawingData } from '../domain/drawingData';
import type { SheetData } from '../domain/sheetEvidence';
import type { DimensionItem, EntitySummary, TextItem } from '../domain/evidence';
import { callJsonTool, type ToolCallMeter } from './toolCalls';
import { decodeDimensions, decodeDuplicates, decodeEntities, decodeLayers, decodeProblems, decodeTexts, decodeZeroLength } from './payloadDecoders';
import type { ReviewPlan } from './plan';

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
 * What each paper layout holding a frame shows: its entities and texts with the model space its
 * viewports show (`through_viewports`; a backend that does not declare it answers with the
 * layout's own entities, and the argument is not sent).
 */
async function readSheets(source: DrawingSource, plan: ReviewPlan, meter: ToolCallMeter): Promise<Record<string, SheetData>> {
  const caps = plan.capabilities;
  const layouts = [...new Set(plan.frames.map((f) => f.layout))].filter((l) => l.toUpperCase() !== 'MODEL');
  const sheets: Record<string, SheetData> = {};
  for (const layout of layouts) {
    const entities = caps.entities
      ? await readPaged<EntitySummary>(async (offset, limit) => {
          const page = decodeEntities(caps.entities!, await callJsonTool(source, meter, caps.entities!, { layout, through_viewports: true, offset, limit }));
          return { items: page.entities, total: page.total };
        }, MAX_LISTED_ENTITIES)
      : { items: [] };
    const texts = caps.texts
      ? await readPaged<TextItem>(async (offset, limit) => {
          const page = decodeTexts(caps.texts!, await callJsonTool(source, meter, caps.texts!, { layout, through_viewports: true, offset, limit }));
          return { items: page.texts, total: page.total };
        }, MAX_LISTED_TEXTS)
      : { items: [] };
    sheets[layout] = { entities: entities.items, texts: texts.items };
  }
  return sheets;
}

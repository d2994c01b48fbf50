import { z } from 'zod';
import type { DetectorHit, DimensionItem, DuplicateGroup, EntitySummary, LayerItem, TextItem } from '../domain/evidence';
import { normaliseTitleLabel, type Frame, type TitleBlock } from '../domain/frame';
import { titleFieldSchema, type TitleField } from '../domain/checklist';
import type { BBox, Point, ScreenshotTransform } from '../domain/geometry';
import { badResult } from './toolCalls';
import { entityKeyer } from '../domain/entityKey';
import { bboxCenter } from '../domain/geometry';

/**
 * Decoders from backend JSON payloads (find_frames, get_texts, ...) to domain evidence. This is
 * the one place that knows the backends' field names; both backends use {x,y} points and
 * {minX,minY,maxX,maxY} boxes.
 */

/** Points arrive as [x, y] (CadSight DXF backend) or {x, y}; boxes as [minX, minY, maxX, maxY] or an object. */
const point = z.union([
  z.tuple([z.number(), z.number()]).rest(z.number()).transform(([x, y]) => ({ x, y })),
  z.object({ x: z.number(), y: z.number() }).loose().transform(({ x, y }) => ({ x, y })),
]);
const box = z.union([
  z.tuple([z.number(), z.number(), z.number(), z.number()]).transform(([minX, minY, maxX, maxY]) => ({ minX, minY, maxX, maxY })),
  z.object({ minX: z.number(), minY: z.number(), maxX: z.number(), maxY: z.number() }).loose().transform(({ minX, minY, maxX, maxY }) => ({ minX, minY, maxX, maxY })),
]);
const handle = z.union([z.string(), z.number().transform(String)]);

function decode<T>(tool: string, schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badResult(tool, `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}


const framePayload = z.object({
  frames: z.array(
    z
      .object({
        id: handle,
        kind: z.string().optional(),
        layout: z.string().optional(),
        bbox: box,
        block: z.string().optional(),
        sheet: z.object({ sheet: z.string(), scale: z.number().positive().optional(), paperWidth: z.number().positive().optional(), paperHeight: z.number().positive().optional() }).loose().nullable().optional(),
        sheetBox: box.optional(),
        titleBlockBox: box.optional(),
        viewportScales: z.array(z.number().positive()).max(100).optional(),
        /** "paper" when a layout frame is the layout's paper as plotted, "content" when only its content's extent. */
        extent: z.enum(['paper', 'content']).optional(),
        viewports: z.array(z.object({ handle, bbox: box, modelBbox: box, scale: z.number().positive() }).loose()).max(100).optional(),
        /** Frames on paper layouts: drawing units per paper mm (1, or 1/25.4 for inch paper). */
        paperUnitsPerMm: z.number().positive().optional(),
        /** Normalised field → value; null = the label exists but its cell is empty; absent = no label. */
        titleBlock: z.record(z.string(), z.string().nullable()).optional(),
      })
      .loose(),
  ),
});

/** find_frames → frames with normalised title-block fields (unknown field names are ignored). */
export function decodeFrames(tool: string, payload: unknown): Frame[] {
  return decode(tool, framePayload, payload).frames.map((raw, index) => {
    const titleBlock: TitleBlock = {};
    for (const [name, value] of Object.entries(raw.titleBlock ?? {})) {
      const key = titleFieldSchema.safeParse(name).success ? (name as TitleField) : normaliseTitleLabel(name);
      if (key) titleBlock[key] = (value ?? '').trim().slice(0, 500);
    }
    // A space without any border is one sheet of its whole extents (kind "extents").
    const wholeSpace = raw.kind === 'extents';
    const label = [titleBlock.title, titleBlock.drawingNo].filter(Boolean).join(' ') || raw.block || (wholeSpace ? `${raw.layout ?? 'Model'} (whole)` : `Frame ${index + 1}`);
    return {
      id: String(raw.id),
      label: label.slice(0, 200),
      bbox: raw.bbox,
      layout: raw.layout ?? 'Model',
      sheetName: raw.sheet?.sheet ?? null,
      unitsPerPaperMm: raw.sheet?.scale ?? raw.paperUnitsPerMm ?? null,
      titleBlock,
      titleBlockAnchors: {},
      origin: wholeSpace ? ('whole-drawing' as const) : ('detected' as const),
      ...(raw.sheet?.paperWidth && raw.sheet.paperHeight ? { sheet: { widthMm: raw.sheet.paperWidth, heightMm: raw.sheet.paperHeight, box: raw.sheetBox ?? raw.bbox } } : {}),
      ...(raw.titleBlockBox ? { titleBlockBox: raw.titleBlockBox } : {}),
      ...(raw.viewportScales && raw.viewportScales.length > 0 ? { viewportScales: raw.viewportScales } : {}),
      ...(raw.viewports && raw.viewports.length > 0 ? { viewports: raw.viewports.map((v) => ({ handle: String(v.handle), bbox: v.bbox, modelBbox: v.modelBbox, scale: v.scale })) } : {}),
      // Layout frames without a border are the paper as plotted (a real sheet size) or, when the
      // backend does not know the paper, only their content's extent (its size says nothing).
      ...((raw.kind === 'layout' && raw.extent !== 'paper') || wholeSpace ? { extentsOnly: true } : {}),
    };
  });
}

const pagedEntities = z.object({
  entities: z.array(z.object({ handle, type: z.string(), layer: z.string(), bbox: box.nullable().optional(), space: z.enum(['paper', 'model']).optional(), model_bbox: box.nullable().optional(), viewport: handle.optional() }).loose()),
  total: z.number().int().optional(),
});

/** get_entities page → summaries plus the backend's total (for paging). */
export function decodeEntities(tool: string, payload: unknown): { entities: EntitySummary[]; total: number | undefined } {
  const page = decode(tool, pagedEntities, payload);
  const key = entityKeyer();
  return {
    entities: page.entities.map((e) => ({
      handle: key(e.handle, e.type, e.bbox ? bboxCenter(e.bbox) : undefined),
      type: e.type,
      layer: e.layer,
      ...(e.bbox ? { bbox: e.bbox } : {}),
      ...(e.space ? { space: e.space } : {}),
      ...(e.model_bbox ? { modelBbox: e.model_bbox } : {}),
      ...(e.viewport !== undefined ? { viewport: e.viewport } : {}),
    })),
    total: page.total,
  };
}

const textsPayload = z.object({
  texts: z.array(
    z
      .object({ handle, text: z.string(), at: point, height: z.number(), layer: z.string(), reviewId: z.string().optional(), space: z.enum(['paper', 'model']).optional(), model_at: point.optional(), style: z.string().optional(), font: z.string().optional(), bigFont: z.string().optional(), inlineFont: z.string().optional() })
      .loose(),
  ),
  total: z.number().int().optional(),
});

export function decodeTexts(tool: string, payload: unknown): { texts: TextItem[]; total: number | undefined } {
  const page = decode(tool, textsPayload, payload);
  const key = entityKeyer();
  return {
    texts: page.texts.map((t) => ({
      handle: key(t.handle, 'TEXT', t.at),
      text: t.text,
      position: t.at,
      height: t.height,
      layer: t.layer,
      ...(t.reviewId ? { reviewId: t.reviewId } : {}),
      ...(t.space ? { space: t.space } : {}),
      ...(t.model_at ? { modelPosition: t.model_at } : {}),
      ...(t.style === undefined ? {} : { style: t.style }),
      ...(t.font === undefined ? {} : { font: t.font }),
      ...(t.bigFont === undefined ? {} : { bigFont: t.bigFont }),
      ...(t.inlineFont === undefined ? {} : { inlineFont: t.inlineFont }),
    })),
    total: page.total,
  };
}

const dimensionsPayload = z.object({
  dimensions: z.array(
    z
      .object({
        handle,
        layer: z.string(),
        dimType: z.string().nullable().optional(),
        measurement: z.number().nullable().optional(),
        measured: z.number().nullable().optional(),
        display: z.object({ linearFactor: z.number(), decimals: z.number().int(), roundTo: z.number().min(0), suppressTrailingZeros: z.boolean() }).loose().nullable().optional(),
        blockText: z.string().nullable().optional(),
        textOverride: z.string().nullable().optional(),
        textAt: point.nullable().optional(),
        defPoint: point.nullable().optional(),
        blockTextHeight: z.number().positive().optional(),
        space: z.enum(['paper', 'model']).optional(),
        model_textAt: point.optional(),
      })
      .loose(),
  ),
  total: z.number().int().optional(),
});

export function decodeDimensions(tool: string, payload: unknown): { dimensions: DimensionItem[]; total: number | undefined } {
  const page = decode(tool, dimensionsPayload, payload);
  const key = entityKeyer();
  return {
    dimensions: page.dimensions.map((d) => {
      const at = d.textAt ?? d.defPoint;
      const display = d.display ? { linearFactor: d.display.linearFactor, decimals: d.display.decimals, roundTo: d.display.roundTo, suppressTrailingZeros: d.display.suppressTrailingZeros } : null;
      return {
        handle: key(d.handle, 'DIMENSION', at ?? undefined),
        layer: d.layer,
        dimType: d.dimType ?? null,
        measurement: d.measurement ?? null,
        measured: d.measured ?? null,
        display,
        blockText: d.blockText ?? null,
        textOverride: d.textOverride ?? null,
        position: at ? at : null,
        ...(d.blockTextHeight === undefined ? {} : { blockTextHeight: d.blockTextHeight }),
        ...(d.space ? { space: d.space } : {}),
        ...(d.model_textAt ? { modelPosition: d.model_textAt } : {}),
      };
    }),
    total: page.total,
  };
}

const locatedEntity = z.object({ handle, type: z.string(), at: point.nullable().optional(), bbox: box.nullable().optional() }).loose();
const zeroLengthPayload = z.object({ entities: z.array(locatedEntity) });

function locationOf(e: { at?: Point | null | undefined; bbox?: BBox | null | undefined }): Point | undefined {
  if (e.at) return e.at;
  if (e.bbox) return { x: (e.bbox.minX + e.bbox.maxX) / 2, y: (e.bbox.minY + e.bbox.maxY) / 2 };
  return undefined;
}

/** find_zero_length → hits; an entity the backend cannot place is skipped (it cannot be annotated). */
export function decodeZeroLength(tool: string, payload: unknown): DetectorHit[] {
  const key = entityKeyer();
  return decode(tool, zeroLengthPayload, payload).entities.flatMap((e) => {
    const location = locationOf(e);
    return location ? [{ handle: key(e.handle, e.type, location), type: e.type, location }] : [];
  });
}

const duplicatesPayload = z.object({
  groups: z.array(z.object({ handles: z.array(handle).min(2), type: z.string(), at: point.nullable().optional(), bbox: box.nullable().optional() }).loose()),
});

export function decodeDuplicates(tool: string, payload: unknown): DuplicateGroup[] {
  const key = entityKeyer();
  return decode(tool, duplicatesPayload, payload).groups.flatMap((g) => {
    const location = locationOf(g);
    return location ? [{ handles: g.handles.map((h) => key(h, g.type, location)), type: g.type, location }] : [];
  });
}

const screenshotMeta = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  pixelsPerUnit: z.number().positive(),
  /** Region drawn, [minX, minY, maxX, maxY]; pixel (0,0) is its top-left corner (minX, maxY). */
  drawingBbox: box,
});

/** The JSON text part of get_screenshot: image size, drawing region and pixel↔drawing transform. */
export function decodeScreenshotMeta(tool: string, payload: unknown): { widthPx: number; heightPx: number; region: BBox; transform: ScreenshotTransform } {
  const meta = decode(tool, screenshotMeta, payload);
  const region = meta.drawingBbox;
  return { widthPx: meta.width, heightPx: meta.height, region, transform: { origin: { x: region.minX, y: region.maxY }, unitsPerPixel: 1 / meta.pixelsPerUnit } };
}

const drawingInfoPayload = z
  .object({
    layouts: z.array(z.object({ name: z.string(), extents: box.nullable().optional() }).loose()).optional(),
    problems: z.array(z.object({ kind: z.string(), message: z.string() }).loose()).optional(),
  })
  .loose();

/** Load problems get_drawing_info reports (what was repaired or skipped), at most 50. */
export function decodeProblems(tool: string, payload: unknown): { kind: string; message: string }[] {
  return (decode(tool, drawingInfoPayload, payload).problems ?? []).slice(0, 50).map((p) => ({ kind: p.kind, message: p.message.slice(0, 300) }));
}

const layersPayload = z.object({
  layers: z.array(z.object({ name: z.string(), lineType: z.string().optional(), lineWeight: z.number().optional(), entityCount: z.number().int().optional() }).loose()),
});

/** get_layers → layer table rows; a backend without lineweights reports them as unset (-3). */
export function decodeLayers(tool: string, payload: unknown): LayerItem[] {
  return decode(tool, layersPayload, payload).layers.map((l) => ({ name: l.name, lineType: l.lineType ?? 'Continuous', lineWeight: l.lineWeight ?? -3, entityCount: l.entityCount ?? 0 }));
}

/** get_drawing_info → model-space extents (the whole-drawing frame when no frame is found). */
export function decodeExtents(tool: string, payload: unknown): BBox | undefined {
  const info = decode(tool, drawingInfoPayload, payload);
  return info.layouts?.find((l) => l.name.toUpperCase() === 'MODEL')?.extents ?? undefined;
}

import { z } from 'zod';
import type { DetectorHit, DimensionItem, DuplicateGroup, EntitySummary, TextItem } from '../domain/evidence';
import { normaliseTitleLabel, type Frame, type TitleBlock } from '../domain/frame';
import type { TitleField } from '../domain/checklist';
import type { BBox, Point, ScreenshotTransform } from '../domain/geometry';
import { badResult } from './toolCalls';

/**
 * Decoders from backend JSON payloads (find_frames, get_texts, ...) to domain evidence. This is
 * the one place that knows the backends' field names; both backends use {x,y} points and
 * {minX,minY,maxX,maxY} boxes.
 */

const point = z.object({ x: z.number(), y: z.number() }).loose();
const box = z.object({ minX: z.number(), minY: z.number(), maxX: z.number(), maxY: z.number() }).loose();
const handle = z.union([z.string(), z.number().transform(String)]);

function decode<T>(tool: string, schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badResult(tool, `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

const toPoint = (p: z.infer<typeof point>): Point => ({ x: p.x, y: p.y });
const toBox = (b: z.infer<typeof box>): BBox => ({ minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY });

const titleFieldEntry = z.object({ label: z.string(), value: z.string().nullable().optional(), at: point.nullable().optional(), key: z.string().optional() }).loose();
const framePayload = z.object({
  frames: z.array(
    z
      .object({
        id: handle,
        label: z.string().optional(),
        name: z.string().optional(),
        layout: z.string().optional(),
        bbox: box,
        sheet: z.union([z.string(), z.object({ name: z.string().nullable().optional() }).loose()]).nullable().optional(),
        unitsPerPaperMm: z.number().positive().nullable().optional(),
        titleBlock: z.object({ fields: z.array(titleFieldEntry) }).loose().nullable().optional(),
      })
      .loose(),
  ),
});

/** find_frames → frames with normalised title-block fields (unknown labels are ignored). */
export function decodeFrames(tool: string, payload: unknown): Frame[] {
  return decode(tool, framePayload, payload).frames.map((raw, index) => {
    const titleBlock: TitleBlock = {};
    const titleBlockAnchors: Partial<Record<TitleField, Point>> = {};
    for (const field of raw.titleBlock?.fields ?? []) {
      const key = normaliseTitleLabel(field.key ?? field.label) ?? normaliseTitleLabel(field.label);
      if (!key || (titleBlock[key] !== undefined && titleBlock[key] !== '')) continue;
      titleBlock[key] = (field.value ?? '').trim();
      if (field.at) titleBlockAnchors[key] = toPoint(field.at);
    }
    const sheetName = typeof raw.sheet === 'string' ? raw.sheet : (raw.sheet?.name ?? null);
    return {
      id: String(raw.id),
      label: raw.label ?? raw.name ?? titleBlock.title ?? `Frame ${index + 1}`,
      bbox: toBox(raw.bbox),
      layout: raw.layout ?? 'Model',
      sheetName,
      unitsPerPaperMm: raw.unitsPerPaperMm ?? null,
      titleBlock,
      titleBlockAnchors,
      origin: 'detected' as const,
    };
  });
}

const pagedEntities = z.object({
  entities: z.array(z.object({ handle, type: z.string(), layer: z.string(), bbox: box.nullable().optional() }).loose()),
  total: z.number().int().optional(),
});

/** get_entities page → summaries plus the backend's total (for paging). */
export function decodeEntities(tool: string, payload: unknown): { entities: EntitySummary[]; total: number | undefined } {
  const page = decode(tool, pagedEntities, payload);
  return {
    entities: page.entities.map((e) => ({ handle: e.handle, type: e.type, layer: e.layer, ...(e.bbox ? { bbox: toBox(e.bbox) } : {}) })),
    total: page.total,
  };
}

const textsPayload = z.object({
  texts: z.array(z.object({ handle, text: z.string(), at: point, height: z.number(), layer: z.string() }).loose()),
  total: z.number().int().optional(),
});

export function decodeTexts(tool: string, payload: unknown): { texts: TextItem[]; total: number | undefined } {
  const page = decode(tool, textsPayload, payload);
  return { texts: page.texts.map((t) => ({ handle: t.handle, text: t.text, position: toPoint(t.at), height: t.height, layer: t.layer })), total: page.total };
}

const dimensionsPayload = z.object({
  dimensions: z.array(
    z
      .object({
        handle,
        layer: z.string(),
        measurement: z.number().nullable(),
        textOverride: z.string().nullable().optional(),
        textAt: point.nullable().optional(),
        defPoint: point.nullable().optional(),
      })
      .loose(),
  ),
  total: z.number().int().optional(),
});

export function decodeDimensions(tool: string, payload: unknown): { dimensions: DimensionItem[]; total: number | undefined } {
  const page = decode(tool, dimensionsPayload, payload);
  return {
    dimensions: page.dimensions.map((d) => {
      const at = d.textAt ?? d.defPoint;
      return { handle: d.handle, layer: d.layer, measurement: d.measurement, textOverride: d.textOverride ?? null, position: at ? toPoint(at) : null };
    }),
    total: page.total,
  };
}

const locatedEntity = z.object({ handle, type: z.string(), at: point.nullable().optional(), bbox: box.nullable().optional() }).loose();
const zeroLengthPayload = z.object({ entities: z.array(locatedEntity) });

function locationOf(e: { at?: { x: number; y: number } | null; bbox?: z.infer<typeof box> | null }): Point | undefined {
  if (e.at) return toPoint(e.at);
  if (e.bbox) return { x: (e.bbox.minX + e.bbox.maxX) / 2, y: (e.bbox.minY + e.bbox.maxY) / 2 };
  return undefined;
}

/** find_zero_length → hits; an entity the backend cannot place is skipped (it cannot be annotated). */
export function decodeZeroLength(tool: string, payload: unknown): DetectorHit[] {
  return decode(tool, zeroLengthPayload, payload).entities.flatMap((e) => {
    const location = locationOf(e);
    return location ? [{ handle: e.handle, type: e.type, location }] : [];
  });
}

const duplicatesPayload = z.object({
  groups: z.array(z.object({ handles: z.array(handle).min(2), type: z.string(), at: point.nullable().optional(), bbox: box.nullable().optional() }).loose()),
});

export function decodeDuplicates(tool: string, payload: unknown): DuplicateGroup[] {
  return decode(tool, duplicatesPayload, payload).groups.flatMap((g) => {
    const location = locationOf(g);
    return location ? [{ handles: g.handles, type: g.type, location }] : [];
  });
}

const screenshotMeta = z.object({
  widthPx: z.number().int().positive(),
  heightPx: z.number().int().positive(),
  region: box,
  transform: z.object({ origin: point, unitsPerPixel: z.number().positive() }).loose(),
});

/** The JSON text part of get_screenshot: image size, drawing region and pixel↔drawing transform. */
export function decodeScreenshotMeta(tool: string, payload: unknown): { widthPx: number; heightPx: number; region: BBox; transform: ScreenshotTransform } {
  const meta = decode(tool, screenshotMeta, payload);
  return { widthPx: meta.widthPx, heightPx: meta.heightPx, region: toBox(meta.region), transform: { origin: toPoint(meta.transform.origin), unitsPerPixel: meta.transform.unitsPerPixel } };
}

const drawingInfoPayload = z.object({ extents: box.nullable().optional() }).loose();

/** get_drawing_info → model-space extents (the whole-drawing frame when no frame is found). */
export function decodeExtents(tool: string, payload: unknown): BBox | undefined {
  const info = decode(tool, drawingInfoPayload, payload);
  return info.extents ? toBox(info.extents) : undefined;
}

import type { DrawingIndex } from './bounds';
import { boxContains, boxesIntersect, emptyBox, isEmptyBox, unionBox } from './geometry';
import type { Box, DxfEntity, DxfLayout } from './model';
import { findLineRectangles } from './rectangles';
import { matchSheet, parseScaleText, trimmedSheetBox, type SheetMatch } from './sheets';
import { dropLayoutDuplicates } from './layoutFrames';
import { findTextTitleBlocks } from './textTitleBlocks';
import { readTitleBlock, type TitleBlockFields } from './titleBlock';
import type { Primitive } from './world';

export type FrameKind = 'block_insert' | 'title_block' | 'rectangle' | 'layout';

export interface DrawingFrame {
  /** Stable id: the entity handle, or "layout:<name>" / "rect:<layout>:<x>,<y>". */
  id: string;
  kind: FrameKind;
  layout: string;
  bbox: Box;
  handle?: string;
  blockName?: string;
  sheet: SheetMatch | null;
  /** The trimmed sheet in drawing units: the bbox grown by the GB/T 14689 margins when the bbox is the inner border. */
  sheetBox: Box;
  titleBlock: TitleBlockFields;
  /** Paper-space frames: model units per paper unit of each model viewport on the sheet (1:50 → 50). */
  viewportScales: number[];
}

type FoundFrame = Omit<DrawingFrame, 'sheet' | 'sheetBox' | 'titleBlock' | 'viewportScales'>;

/** Block names that announce a frame or a title block. */
const FRAME_BLOCK_NAME = /frame|border|title|图框|标题栏|图签|^tk|(?:^|[^a-z0-9])a[0-4](?![0-9])/i;
/** Layers a border rectangle is drawn on in many templates (a rectangle there is the frame whatever its shape). */
const BORDER_LAYER = /border|frame|图框|图幅|^tk$|rahmen/i;
/** A frame-named insert or border-layer rectangle smaller than this share of its layout is a symbol or label, not the frame. */
const MIN_FRAME_SHARE = 0.3;
/** Title blocks sit in the lower right; this part of a sheet frame is searched for its fields. */
const TITLE_REGION = { fromLeft: 0.4, fromBottom: 0.35 };

/**
 * Finds drawing frames in every layout (or one): frame/title-block block inserts, closed
 * rectangles (polylines or four lines) with an A0–A4 aspect at any uniform scale, and paper
 * layouts that have content but no frame of their own. Frames nested in another frame are dropped.
 */
export function findFrames(index: DrawingIndex, layoutName?: string): DrawingFrame[] {
  const frames: DrawingFrame[] = [];
  for (const layout of index.doc.layouts) frames.push(...framesInLayout(index, layout));
  // Duplicates are judged against every layout's frames, then the requested layout is kept.
  const kept = dropLayoutDuplicates(index.doc.layouts, frames);
  return layoutName === undefined ? kept : kept.filter((f) => f.layout.toUpperCase() === layoutName.toUpperCase());
}

function framesInLayout(index: DrawingIndex, layout: DxfLayout): DrawingFrame[] {
  const found: FoundFrame[] = [];
  const extents = emptyBox();
  for (const entity of layout.entities) unionBox(extents, index.box(entity));
  for (const entity of layout.entities) {
    const g = entity.geometry;
    const box = index.box(entity);
    if (isEmptyBox(box)) continue;
    if (g.kind === 'insert') {
      const sheetLike = isSheetOutline(box, extents);
      // A frame-named block must also look like a sheet or be large: "symbol_border" tags are not frames.
      const frameSized = matchSheet(box.maxX - box.minX, box.maxY - box.minY) !== undefined || diagonal(box) >= MIN_FRAME_SHARE * diagonal(extents);
      if (!sheetLike && !(FRAME_BLOCK_NAME.test(g.name) && frameSized)) continue;
      const kind = /title|标题栏|图签/i.test(g.name) && !sheetLike ? 'title_block' : 'block_insert';
      found.push({ id: entity.handle || `insert:${layout.name}:${round(box.minX)},${round(box.minY)}`, kind, layout: layout.name, bbox: box, ...(entity.handle ? { handle: entity.handle } : {}), blockName: g.name });
    } else if (g.kind === 'polyline' && isClosedRectangle(entity) && (isSheetOutline(box, extents) || (BORDER_LAYER.test(entity.layer) && diagonal(box) >= MIN_FRAME_SHARE * diagonal(extents)))) {
      found.push({ id: entity.handle || `rect:${layout.name}:${round(box.minX)},${round(box.minY)}`, kind: 'rectangle', layout: layout.name, bbox: box, ...(entity.handle ? { handle: entity.handle } : {}) });
    }
  }
  for (const box of findLineRectangles(layout.entities, extents)) {
    if (isSheetOutline(box, extents)) found.push({ id: `rect:${layout.name}:${round(box.minX)},${round(box.minY)}`, kind: 'rectangle', layout: layout.name, bbox: box });
  }
  const outer = found.filter((f) => !found.some((o) => o !== f && boxContains(o.bbox, f.bbox, tolerance(o.bbox)) && !boxContains(f.bbox, o.bbox, tolerance(f.bbox))));
  const unique = outer.filter((f, i) => outer.findIndex((o) => boxContains(o.bbox, f.bbox, tolerance(o.bbox)) && boxContains(f.bbox, o.bbox, tolerance(f.bbox))) === i);
  const texts = layoutTexts(index, layout);
  if (unique.length === 0) {
    // A title block drawn as lines and texts, without a block or a sheet-shaped border.
    for (const box of findTextTitleBlocks(texts)) unique.push({ id: `titleblock:${layout.name}:${round(box.minX)},${round(box.minY)}`, kind: 'title_block', layout: layout.name, bbox: box });
  }
  if (unique.length === 0 && layout.paperSpace && !isEmptyBox(extents)) {
    unique.push({ id: `layout:${layout.name}`, kind: 'layout', layout: layout.name, bbox: extents });
  }
  return unique.map((f) => ({ ...describeFrame(f, texts), viewportScales: layout.paperSpace ? viewportScalesIn(layout, f.bbox) : [] }));
}

/** Scales of the model viewports (id 1 is the sheet's own view) whose centre lies on the frame. */
function viewportScalesIn(layout: DxfLayout, box: Box): number[] {
  const scales: number[] = [];
  for (const e of layout.entities) {
    const g = e.geometry;
    if (g.kind !== 'viewport' || g.id === 1 || !(g.height > 0 && g.viewHeight > 0)) continue;
    if (g.center.x < box.minX || g.center.x > box.maxX || g.center.y < box.minY || g.center.y > box.maxY) continue;
    scales.push(g.viewHeight / g.height);
  }
  return scales;
}

function describeFrame(frame: FoundFrame, texts: Extract<Primitive, { kind: 'text' }>[]): Omit<DrawingFrame, 'viewportScales'> {
  const b = frame.bbox;
  const region: Box =
    frame.kind === 'title_block' || frame.kind === 'layout'
      ? b
      : { minX: b.minX + (b.maxX - b.minX) * TITLE_REGION.fromLeft, minY: b.minY, maxX: b.maxX, maxY: b.minY + (b.maxY - b.minY) * TITLE_REGION.fromBottom };
  const inRegion = texts.filter((t) => t.at.x >= region.minX && t.at.x <= region.maxX && t.at.y >= region.minY && t.at.y <= region.maxY);
  const titleBlock = readTitleBlock(inRegion);
  const hints: { name?: string; scale?: number } = {};
  if (frame.blockName) hints.name = frame.blockName;
  const scale = parseScaleText(titleBlock.fields.scale);
  if (scale) hints.scale = scale;
  const sheet = frame.kind === 'title_block' || frame.kind === 'layout' ? null : (matchSheet(b.maxX - b.minX, b.maxY - b.minY, hints) ?? null);
  return { ...frame, sheet, sheetBox: sheet ? trimmedSheetBox(b, sheet) : b, titleBlock };
}

function layoutTexts(index: DrawingIndex, layout: DxfLayout): Extract<Primitive, { kind: 'text' }>[] {
  const texts: Extract<Primitive, { kind: 'text' }>[] = [];
  for (const entity of layout.entities) {
    const g = entity.geometry;
    if (g.kind !== 'text' && g.kind !== 'insert' && g.kind !== 'leader') continue;
    for (const p of index.primitives(entity)) if (p.kind === 'text') texts.push(p);
  }
  return texts;
}

function isClosedRectangle(entity: DxfEntity): boolean {
  const g = entity.geometry;
  if (g.kind !== 'polyline' || g.vertices.some((v) => v.bulge !== 0)) return false;
  const v = g.vertices.slice();
  const first = v[0];
  const last = v[v.length - 1];
  if (v.length === 5 && first && last && first.x === last.x && first.y === last.y) v.pop();
  else if (!g.closed) return false;
  if (v.length !== 4) return false;
  const box = emptyBox();
  for (const p of v) unionBox(box, { minX: p.x, minY: p.y, maxX: p.x, maxY: p.y });
  const eps = tolerance(box);
  return v.every((p) => (Math.abs(p.x - box.minX) <= eps || Math.abs(p.x - box.maxX) <= eps) && (Math.abs(p.y - box.minY) <= eps || Math.abs(p.y - box.maxY) <= eps));
}

/**
 * A rectangle is taken as a sheet when its aspect matches an A-size outline and either it is
 * large in its layout or its scale factor is a usual one (several sheets side by side).
 */
function isSheetOutline(box: Box, extents: Box): boolean {
  const sheet = matchSheet(box.maxX - box.minX, box.maxY - box.minY);
  return sheet !== undefined && (sheet.usualScale || diagonal(box) >= 0.3 * diagonal(extents));
}

function diagonal(box: Box): number {
  return isEmptyBox(box) ? 0 : Math.hypot(box.maxX - box.minX, box.maxY - box.minY);
}

function tolerance(box: Box): number {
  return diagonal(box) * 1e-4;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** Frames whose box intersects `bbox` (all when no box is given). */
export function framesInBox(frames: DrawingFrame[], bbox: Box | undefined): DrawingFrame[] {
  return bbox ? frames.filter((f) => boxesIntersect(f.bbox, bbox)) : frames;
}

import type { DrawingIndex } from './bounds';
import { boxContains, boxesIntersect, emptyBox, isEmptyBox, unionBox } from './geometry';
import { layoutExtents } from './scene';
import { layoutViewports } from './viewports';
import type { Box, DxfEntity, DxfLayout } from './model';
import { findLineRectangles } from './rectangles';
import { matchSheet, parseScaleText, trimmedSheetBox, type SheetMatch } from './sheets';
import { dropLayoutDuplicates } from './layoutFrames';
import { findTextTitleBlocks } from './textTitleBlocks';
import { readTitleBlock, type TitleBlockFields } from './titleBlock';
import type { Primitive } from './world';

/**
 * How a frame was found: a drawn border (insert, rectangle), a title block drawn as lines and
 * texts, a paper layout without a border of its own (its paper, else its content), or a space
 * without any border (`extents`: its whole content is one sheet).
 */
export type FrameKind = 'block_insert' | 'title_block' | 'rectangle' | 'layout' | 'extents';

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
  /** Layout and extents frames: whether the box is the layout's paper as plotted or only its content. */
  extent?: 'paper' | 'content';
}

type FoundFrame = Omit<DrawingFrame, 'sheet' | 'sheetBox' | 'titleBlock' | 'viewportScales'> & { titleRegion?: Box };

/** Block names that announce a frame or a title block. */
const FRAME_BLOCK_NAME = /frame|border|title|图框|标题栏|图签|^tk|(?:^|[^a-z0-9])a[0-4](?![0-9])/i;
/** Layers a border rectangle is drawn on in many templates (a rectangle there is the frame whatever its shape). */
const BORDER_LAYER = /border|frame|图框|图幅|^tk$|rahmen/i;
/** A frame-named insert or border-layer rectangle smaller than this share of its layout is a symbol or label, not the frame. */
const MIN_FRAME_SHARE = 0.3;
/** Title blocks sit in the lower right; this part of a sheet frame is searched for its fields. */
const TITLE_REGION = { fromLeft: 0.4, fromBottom: 0.35 };
/**
 * The GB/T 10609.1 title block is 180 mm wide whatever the sheet (192 mm with the border's margin),
 * set against the border's lower right: on A4 (portrait 210 mm, landscape 297 mm wide) it reaches
 * past the share above. A4, the smallest sheet (297 mm long side), bounds its share of a frame's
 * long side from above, whatever the frame's scale.
 */
const GB_TITLE_BLOCK_SHARE_OF_A4_LONG_SIDE = 192 / 297;

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
  const model = index.doc.layouts.find((l) => !l.paperSpace);
  if (model && !kept.some((f) => f.layout === model.name)) {
    // Model space without a border is one sheet of its whole extents — unless the paper sheets plot it through their viewports.
    const extents = layoutExtents(index, model);
    const plotted = kept.some((f) => {
      const layout = index.doc.layouts.find((l) => l.name === f.layout);
      return layout !== undefined && layoutViewports(index, layout).some((v) => boxesIntersect(v.modelBox, extents));
    });
    if (!isEmptyBox(extents) && !plotted) kept.unshift({ ...describeFrame({ id: `extents:${model.name}`, kind: 'extents', layout: model.name, bbox: extents }, layoutTexts(index, model)), viewportScales: [], extent: 'content' });
  }
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
    // A title block drawn as lines and texts, without a border: the sheet is the space's whole
    // content (paper: its paper) and the title block is read where it was found.
    const titleBlocks = findTextTitleBlocks(texts);
    if (titleBlocks.length === 1 && !layout.paperSpace) unique.push({ id: `extents:${layout.name}`, kind: 'extents', layout: layout.name, bbox: extents, extent: 'content', titleRegion: titleBlocks[0]! });
    else if (titleBlocks.length === 1 && layout.paperSpace) unique.push({ ...paperLayoutFrame(layout, layoutExtents(index, layout)), titleRegion: titleBlocks[0]! });
    else for (const box of titleBlocks) unique.push({ id: `titleblock:${layout.name}:${round(box.minX)},${round(box.minY)}`, kind: 'title_block', layout: layout.name, bbox: box });
  }
  if (unique.length === 0 && layout.paperSpace && hasSheetContent(index, layout)) unique.push(paperLayoutFrame(layout, layoutExtents(index, layout)));
  return unique.map((f) => ({ ...describeFrame(f, texts), viewportScales: layout.paperSpace ? viewportScalesIn(layout, f.bbox) : [] }));
}

/**
 * A paper layout without a border: the paper it is plotted on when the file says and the content
 * lies on it; content off that paper (converters write default Letter settings under A-size
 * sheets) widens the box to the content, which then stands for the sheet.
 */
function paperLayoutFrame(layout: DxfLayout, extents: Box): FoundFrame {
  const paper = layout.paperBox;
  const onPaper = paper !== undefined && (isEmptyBox(extents) || boxContains(paper, extents, tolerance(paper) * 100));
  if (paper && onPaper) return { id: `layout:${layout.name}`, kind: 'layout', layout: layout.name, bbox: paper, extent: 'paper' };
  const box = { ...(paper ?? extents) };
  unionBox(box, extents);
  return { id: `layout:${layout.name}`, kind: 'layout', layout: layout.name, bbox: box, extent: 'content' };
}

/** A paper layout shows something: an entity of its own besides viewports, or a viewport onto model space. */
function hasSheetContent(index: DrawingIndex, layout: DxfLayout): boolean {
  return !isEmptyBox(layoutExtents(index, layout)) && (layout.entities.some((e) => e.geometry.kind !== 'viewport') || layoutViewports(index, layout).length > 0);
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

function describeFrame(found: FoundFrame, texts: Extract<Primitive, { kind: 'text' }>[]): Omit<DrawingFrame, 'viewportScales'> {
  const { titleRegion, ...frame } = found;
  const b = frame.bbox;
  const whole = frame.kind === 'title_block' || frame.kind === 'layout' || frame.kind === 'extents';
  const region: Box = titleRegion ?? whole ? (titleRegion ?? b) : lowerRightRegion(b);
  // A space taken whole has a title block only where one was found, never "somewhere in everything".
  const inRegion = frame.kind === 'extents' && !titleRegion ? [] : texts.filter((t) => t.at.x >= region.minX && t.at.x <= region.maxX && t.at.y >= region.minY && t.at.y <= region.maxY);
  const titleBlock = readTitleBlock(inRegion);
  const hints: { name?: string; scale?: number } = {};
  if (frame.blockName) hints.name = frame.blockName;
  const scale = parseScaleText(titleBlock.fields.scale);
  if (scale) hints.scale = scale;
  // A layout's paper is a sheet when it has an A size (paper units: scale 1, or 1/25.4 for inches).
  const paperSheet = frame.kind === 'layout' && frame.extent === 'paper';
  const sheet = paperSheet ? (matchSheet(b.maxX - b.minX, b.maxY - b.minY) ?? null) : frame.kind === 'title_block' || frame.kind === 'layout' || frame.kind === 'extents' ? null : (matchSheet(b.maxX - b.minX, b.maxY - b.minY, hints) ?? null);
  return { ...frame, sheet, sheetBox: sheet ? trimmedSheetBox(b, sheet) : b, titleBlock };
}

/** The lower-right part of a sheet frame where its title block is read: the usual share, widened to a GB title block's width on an A4 sheet. */
function lowerRightRegion(b: Box): Box {
  const width = b.maxX - b.minX;
  const height = b.maxY - b.minY;
  const reach = Math.min(width, Math.max(width * (1 - TITLE_REGION.fromLeft), Math.max(width, height) * GB_TITLE_BLOCK_SHARE_OF_A4_LONG_SIDE));
  return { minX: b.maxX - reach, minY: b.minY, maxX: b.maxX, maxY: b.minY + height * TITLE_REGION.fromBottom };
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

import { AppError } from '../../../../shared/errors';
import { BlockExpansion, MAX_EXPANDED_ENTITIES, tooComplex } from './blockExpansion';
import { emptyBox, extendBox, isEmptyBox, unionBox } from './geometry';
import type { Box, DxfDocument, DxfEntity, DxfLayout, Vec2 } from './model';
import { SpatialGrid } from './spatialGrid';
import { flattenEntity, type Primitive } from './world';

/** Advance of one character relative to the text height: CJK glyphs are square, Latin about 0.7. */
function charAdvance(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  return code >= 0x2e80 ? 1.0 : 0.7;
}

/** Line pitch of MTEXT relative to the text height (AutoCAD's default spacing factor 1.0). */
export const MTEXT_LINE_PITCH = 5 / 3;

/** Depth of descenders below the last baseline relative to the text height (Noto CJK: about 0.3 cap heights). */
const DESCENT = 0.3;
/** Depth below the baseline of a stacked lower part (70 % size, lowered ~0.35 h) with its descenders. */
const STACK_DESCENT = 0.6;

/**
 * Estimated box of a text primitive (no font metrics in the domain): lines × average advance,
 * from the cap height of the first line down to the descenders of the last (deeper when it has a
 * stacked lower part), placed by alignment and rotated about the insertion point.
 */
export function textCorners(t: Extract<Primitive, { kind: 'text' }>): Vec2[] {
  const lines = t.text.split('\n');
  const h = t.height;
  const width = Math.max(...lines.map((line) => [...line].reduce((sum, ch) => sum + charAdvance(ch) * h, 0))) * (t.widthFactor ?? 1);
  const totalHeight = t.mtext ? h + (lines.length - 1) * h * MTEXT_LINE_PITCH : h;
  const left = t.hAlign === 1 ? -width / 2 : t.hAlign === 2 ? -width : 0;
  // vAlign 3 = top, 2 = middle, 1 = bottom, 0 = baseline (TEXT only)
  const top = t.vAlign === 3 ? 0 : t.vAlign === 2 ? totalHeight / 2 : totalHeight;
  const lastRuns = t.runs?.[t.runs.length - 1];
  const bottom = top - totalHeight - h * (lastRuns?.some((run) => run.kind === 'stack' && run.lower) ? STACK_DESCENT : DESCENT);
  const r = (t.rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  return [
    { x: left, y: bottom },
    { x: left + width, y: bottom },
    { x: left + width, y: top },
    { x: left, y: top },
  ].map((p) => {
    // seen from behind, the up direction is 90° clockwise from the baseline
    const y = t.mirrored ? -p.y : p.y;
    return { x: t.at.x + p.x * cos - y * sin, y: t.at.y + p.x * sin + y * cos };
  });
}

export function primitiveBox(p: Primitive): Box {
  const box = emptyBox();
  const points = p.kind === 'path' ? p.points : textCorners(p);
  for (const point of points) extendBox(box, point);
  return box;
}

/** Points of drawn primitives kept for re-renders (~50 MB): a large sheet's worth, not a 200k-entity drawing's. */
const MAX_CACHED_POINTS = 1_000_000;

/**
 * Per-document cache of world primitives and boxes. Created per opened drawing (never shared
 * module state); invalidated by creating a new one after edits.
 */
export class DrawingIndex {
  private readonly boxes = new Map<DxfEntity, Box>();
  private readonly grids = new Map<DxfLayout, SpatialGrid<DxfEntity>>();
  /** Visible primitives of entities drawn before (re-renders at other zoom levels reuse them), bounded by points held. */
  private readonly drawn = new Map<DxfEntity, Primitive[]>();
  /** Dimensions placed by their definition points because they draw nothing (no block). */
  private readonly undrawn = new Set<DxfEntity>();
  private drawnPoints = 0;
  /** Block-graph counts and boxes; lets boxes and budgets be known without expanding blocks. */
  readonly expansion: BlockExpansion;

  constructor(readonly doc: DxfDocument) {
    this.expansion = new BlockExpansion(doc, (e) => fastBox(e) ?? this.boxOfPrimitives(e));
  }

  /**
   * World primitives of a top-level entity. Throws CAD_DXF_TOO_COMPLEX, before any work, when
   * its block expansion exceeds MAX_EXPANDED_ENTITIES.
   */
  /** The result is shared with later calls (visible primitives are cached): callers must not mutate it. */
  primitives(entity: DxfEntity, visibleOnly = false): Primitive[] {
    const cached = visibleOnly ? this.drawn.get(entity) : undefined;
    if (cached) return cached;
    const count = this.expansion.count(entity);
    if (count > MAX_EXPANDED_ENTITIES) throw tooComplex(entity, count, MAX_EXPANDED_ENTITIES);
    const primitives = flattenEntity(this.doc, entity, { visibleOnly });
    if (visibleOnly && this.drawnPoints < MAX_CACHED_POINTS) {
      for (const p of primitives) this.drawnPoints += p.kind === 'path' ? p.points.length : 1;
      this.drawn.set(entity, primitives);
    }
    return primitives;
  }

  /**
   * World box of an entity (empty box when it has no geometry). An entity too complex to expand
   * gets the box of its block boxes instead, so spatial queries keep working on hostile files.
   */
  box(entity: DxfEntity): Box {
    let box = this.boxes.get(entity);
    if (!box) {
      box = fastBox(entity) ?? (this.expansion.count(entity) > MAX_EXPANDED_ENTITIES ? this.expansion.box(entity) : this.boxOfPrimitives(entity));
      this.boxes.set(entity, box);
    }
    return box;
  }

  /**
   * Whether `entity` puts ink on the picture. A dimension without its block is placed by its
   * definition points (so viewports and frames find it) but draws nothing, so a picture's extents
   * leave it out.
   */
  draws(entity: DxfEntity): boolean {
    this.box(entity);
    return !this.undrawn.has(entity);
  }

  /** Top-level entities of `layout` whose box intersects `box`, in drawing order (grid-indexed). */
  entitiesIn(layout: DxfLayout, box: Box): DxfEntity[] {
    let grid = this.grids.get(layout);
    if (!grid) {
      const boxes = layout.entities.map((e) => this.box(e));
      const extents = emptyBox();
      for (const b of boxes) unionBox(extents, b);
      grid = new SpatialGrid(layout.entities, boxes, extents);
      this.grids.set(layout, grid);
    }
    return grid.query(box);
  }

  private boxOfPrimitives(entity: DxfEntity): Box {
    const box = emptyBox();
    let primitives: Primitive[];
    try {
      primitives = flattenEntity(this.doc, entity);
    } catch (error) {
      // over the budget only while drawing (dense hatch patterns): the block-graph box still places it
      if (error instanceof AppError && error.code === 'CAD_DXF_TOO_COMPLEX') return this.expansion.box(entity);
      throw error;
    }
    for (const p of primitives) unionBox(box, primitiveBox(p));
    // A DIMENSION written without its anonymous block (ezdxf without render(), other writers) draws
    // nothing, yet it is on the drawing: its definition points still place it.
    const g = entity.geometry;
    if (g.kind === 'dimension' && isEmptyBox(box)) {
      for (const p of [g.defPoint, ...g.points]) extendBox(box, p);
      this.undrawn.add(entity);
    }
    return box;
  }
}

/** Boxes of the most common simple entities without building primitives (open-time hot path). */
function fastBox(entity: DxfEntity): Box | undefined {
  const g = entity.geometry;
  if (g.kind === 'line') {
    const box = emptyBox();
    extendBox(box, g.a);
    extendBox(box, g.b);
    return box;
  }
  if (g.kind === 'circle') return { minX: g.center.x - Math.abs(g.radius), minY: g.center.y - Math.abs(g.radius), maxX: g.center.x + Math.abs(g.radius), maxY: g.center.y + Math.abs(g.radius) };
  if (g.kind === 'viewport') return { minX: g.center.x - g.width / 2, minY: g.center.y - g.height / 2, maxX: g.center.x + g.width / 2, maxY: g.center.y + g.height / 2 };
  if (g.kind === 'polyline' && g.vertices.every((v) => v.bulge === 0)) {
    const box = emptyBox();
    for (const v of g.vertices) extendBox(box, v);
    return box;
  }
  return undefined;
}

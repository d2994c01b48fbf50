import { MAX_EXPANDED_ENTITIES, tooComplex } from './blockExpansion';
import type { DrawingIndex } from './bounds';
import { apply, boxesIntersect, emptyBox, scaleOf, unionBox, type Affine } from './geometry';
import type { Box, DxfEntity, DxfLayout, Vec2 } from './model';
import { layoutByName } from './queries';
import { layoutViewports, type LayoutViewport } from './viewports';
import { transformText, type Primitive } from './world';

/** Most entities one picture may draw, blocks expanded (two full single-entity budgets). */
export const MAX_SCENE_ENTITIES = 2 * MAX_EXPANDED_ENTITIES;

/** One group of primitives in layout coordinates, optionally clipped to an outline. */
export interface ScenePart {
  primitives: Primitive[];
  /** Clip outline (a viewport boundary on the sheet); absent for the layout's own entities. */
  clip?: Vec2[];
  /** The viewport this part is seen through. */
  viewport?: LayoutViewport;
}

/**
 * Moves a primitive from model space to the sheet through a viewport transform. Dash patterns keep
 * their paper length when `paperLinetypes` ($PSLTSCALE = 1, AutoCAD's default), else scale with the view.
 */
export function toSheet(p: Primitive, m: Affine, paperLinetypes = true): Primitive {
  if (p.kind === 'path') {
    const moved = { ...p, points: p.points.map((q) => apply(m, q)) };
    if (p.dashes && !paperLinetypes) moved.dashes = p.dashes.map((d) => d * scaleOf(m));
    // a polyline width is model geometry: it shrinks with the view like the points do
    if (p.width) moved.width = p.width * scaleOf(m);
    return moved;
  }
  return transformText(p, m);
}

/**
 * What a layout shows inside `bbox`, in drawing order: for a paper layout, model space seen
 * through each viewport (transformed, clipped, without the layers frozen in that viewport),
 * then the paper-space entities on top; for model space, its entities. Off/frozen layers are
 * skipped. Throws CAD_DXF_TOO_COMPLEX when the picture would draw more than MAX_SCENE_ENTITIES.
 */
export function layoutScene(index: DrawingIndex, layoutName: string, bbox: Box): ScenePart[] {
  const layout = layoutByName(index, layoutName);
  let work = 0;
  const take = (entity: DxfEntity): Primitive[] => {
    work += index.expansion.count(entity);
    if (work > MAX_SCENE_ENTITIES) throw tooComplex(entity, work, MAX_SCENE_ENTITIES);
    return index.primitives(entity, true);
  };
  const parts: ScenePart[] = [];
  if (layout.paperSpace) {
    const model = index.doc.layouts.find((l) => !l.paperSpace) as DxfLayout;
    const paperLinetypes = index.doc.header.get('$PSLTSCALE')?.values[0]?.value.trim() !== '0';
    for (const viewport of layoutViewports(index, layout)) {
      if (!boxesIntersect(viewport.clipBox, bbox)) continue;
      const primitives: Primitive[] = [];
      for (const entity of index.entitiesIn(model, viewport.modelBox)) {
        if (viewport.frozenLayers.has(entity.layer.toUpperCase())) continue;
        for (const p of take(entity)) if (!viewport.frozenLayers.has(p.layer.toUpperCase())) primitives.push(toSheet(p, viewport.toPaper, paperLinetypes));
      }
      parts.push(...inDrawingOrder({ primitives, clip: viewport.clip, viewport }));
    }
  }
  const own: Primitive[] = [];
  for (const entity of index.entitiesIn(layout, bbox)) own.push(...take(entity));
  parts.push(...inDrawingOrder({ primitives: own }));
  return parts;
}

/**
 * A part cut at its WIPEOUT masks: a renderer draws each part in one go (batched by colour), so
 * what comes before a mask goes in a part of its own, the mask in the next, and the rest after it.
 */
export function inDrawingOrder(part: ScenePart): ScenePart[] {
  if (!part.primitives.some((p) => p.kind === 'path' && p.mask)) return [part];
  const out: ScenePart[] = [];
  let run: Primitive[] = [];
  let masks = false;
  const flush = (): void => {
    if (run.length > 0) out.push({ ...part, primitives: run });
    run = [];
  };
  for (const p of part.primitives) {
    const mask = p.kind === 'path' && p.mask === true;
    if (mask !== masks) flush();
    masks = mask;
    run.push(p);
  }
  flush();
  return out;
}

/**
 * Extents of what a layout shows: its entities' boxes, without the viewports that show nothing
 * (a layout's overall viewport, id 1, spans the whole paper tab; switched-off viewports).
 */
export function layoutExtents(index: DrawingIndex, layout: DxfLayout, options: { drawnOnly?: boolean } = {}): Box {
  const box = emptyBox();
  for (const entity of layout.entities) {
    const g = entity.geometry;
    if (g.kind === 'viewport' && (g.id === 1 || g.status <= 0)) continue;
    // A picture frames its ink: a dimension that draws nothing (no block) is left out of it, while
    // sheets still count it (it is on the drawing, placed by its definition points).
    if (options.drawnOnly && !index.draws(entity)) continue;
    unionBox(box, index.box(entity));
  }
  return box;
}

import type { DrawingIndex } from './bounds';
import { boxesIntersect, transformBox } from './geometry';
import type { Box, DxfEntity, DxfLayout, Vec2 } from './model';
import { toSheet } from './scene';
import { insidePolygon, layoutViewports, type LayoutViewport } from './viewports';
import type { Primitive } from './world';

/** A model-space entity as a paper layout shows it through one of its viewports. */
export interface SeenThroughViewport {
  entity: DxfEntity;
  viewport: LayoutViewport;
  /** Box on the sheet (paper units) and in model space. */
  paperBox: Box;
  modelBox: Box;
}

function hiddenLayer(index: DrawingIndex, name: string): boolean {
  const layer = index.doc.layers.get(name.toUpperCase());
  return layer !== undefined && (layer.off || layer.frozen);
}

/** True when a paper box overlaps the viewport's clip outline (box test, then the outline for non-rectangular clips). */
function overlapsClip(box: Box, viewport: LayoutViewport): boolean {
  if (!boxesIntersect(box, viewport.clipBox)) return false;
  if (viewport.clip.length === 4) return true;
  const centre = { x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2 };
  const corners: Vec2[] = [centre, { x: box.minX, y: box.minY }, { x: box.maxX, y: box.minY }, { x: box.maxX, y: box.maxY }, { x: box.minX, y: box.maxY }];
  return corners.some((p) => insidePolygon(p, viewport.clip)) || viewport.clip.some((p) => p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY);
}

/**
 * Model-space entities a paper layout shows through its viewports, optionally only those whose
 * sheet box meets `paperBox`: inside the clip outline, not on a layer that is off, frozen, or
 * frozen in that viewport. An entity seen through two viewports of the layout is listed twice
 * (once per viewport), as the sheet shows it twice.
 */
export function seenThroughViewports(index: DrawingIndex, layout: DxfLayout, paperBox?: Box): SeenThroughViewport[] {
  const model = index.doc.layouts.find((l) => !l.paperSpace);
  if (!model || !layout.paperSpace) return [];
  const out: SeenThroughViewport[] = [];
  for (const viewport of layoutViewports(index, layout)) {
    if (paperBox && !boxesIntersect(paperBox, viewport.clipBox)) continue;
    for (const entity of index.entitiesIn(model, viewport.modelBox)) {
      if (viewport.frozenLayers.has(entity.layer.toUpperCase()) || hiddenLayer(index, entity.layer)) continue;
      const modelBox = index.box(entity);
      const sheetBox = transformBox(viewport.toPaper, modelBox);
      if (!overlapsClip(sheetBox, viewport) || (paperBox && !boxesIntersect(sheetBox, paperBox))) continue;
      out.push({ entity, viewport, paperBox: sheetBox, modelBox });
    }
  }
  return out;
}

/** Text primitives of a model entity seen through a viewport, moved to the sheet; only those whose anchor is inside the clip. */
export function sheetTexts(index: DrawingIndex, seen: SeenThroughViewport): { sheet: Extract<Primitive, { kind: 'text' }>; model: Extract<Primitive, { kind: 'text' }> }[] {
  const out: { sheet: Extract<Primitive, { kind: 'text' }>; model: Extract<Primitive, { kind: 'text' }> }[] = [];
  for (const p of index.primitives(seen.entity, true)) {
    if (p.kind !== 'text' || seen.viewport.frozenLayers.has(p.layer.toUpperCase())) continue;
    const sheet = toSheet(p, seen.viewport.toPaper) as Extract<Primitive, { kind: 'text' }>;
    if (insidePolygon(sheet.at, seen.viewport.clip)) out.push({ sheet, model: p });
  }
  return out;
}

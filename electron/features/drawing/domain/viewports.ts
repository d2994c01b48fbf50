import type { DrawingIndex } from './bounds';
import { apply, emptyBox, extendBox, type Affine } from './geometry';
import type { Box, DxfEntity, DxfLayout, Vec2, ViewportGeometry } from './model';

/** A window of a paper layout onto model space, ready to draw or to gather evidence through. */
export interface LayoutViewport {
  entity: DxfEntity;
  /** Clip outline on the sheet (paper units): the viewport rectangle or its clip entity. */
  clip: Vec2[];
  clipBox: Box;
  /** model → paper and back. */
  toPaper: Affine;
  toModel: Affine;
  /** Paper units per model unit (1:100 → 0.01 for mm on mm). */
  scale: number;
  /** Upper-case names of the layers frozen in this viewport only. */
  frozenLayers: Set<string>;
  /** Model-space box seen through the clip outline. */
  modelBox: Box;
}

/** model → paper: paper = center + s·(R(twist)·(model − target) − viewCenter) (view centre is in display coordinates). */
export function viewportTransform(g: ViewportGeometry): Affine {
  const s = g.viewHeight > 0 ? g.height / g.viewHeight : 0;
  const r = (g.twistDeg * Math.PI) / 180;
  const a = s * Math.cos(r);
  const b = s * Math.sin(r);
  // x' = a·x − b·y + e, y' = b·x + a·y + f
  const e = g.center.x - s * g.viewCenter.x - (a * g.target.x - b * g.target.y);
  const f = g.center.y - s * g.viewCenter.y - (b * g.target.x + a * g.target.y);
  return [a, b, -b, a, e, f];
}

function invert(m: Affine): Affine {
  const det = m[0] * m[3] - m[1] * m[2];
  const [a, b, c, d] = [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det];
  return [a, b, c, d, -(a * m[4] + c * m[5]), -(b * m[4] + d * m[5])];
}

function boxOf(points: Vec2[]): Box {
  const box = emptyBox();
  for (const p of points) extendBox(box, p);
  return box;
}

/**
 * The viewports of a paper layout that show model space, in drawing order: on (status > 0),
 * not the layout's overall viewport (id 1), a top view, with a positive size and view height.
 * A non-rectangular viewport is clipped by its clip entity's outline.
 */
export function layoutViewports(index: DrawingIndex, layout: DxfLayout): LayoutViewport[] {
  if (!layout.paperSpace) return [];
  const layerByHandle = new Map<string, string>();
  for (const layer of index.doc.layers.values()) if (layer.handle) layerByHandle.set(layer.handle.toUpperCase(), layer.name.toUpperCase());
  const out: LayoutViewport[] = [];
  for (const entity of layout.entities) {
    const g = entity.geometry;
    if (g.kind !== 'viewport' || g.id === 1 || g.status <= 0 || !g.topView || !(g.width > 0 && g.height > 0 && g.viewHeight > 0)) continue;
    const clip = clipOutline(index, g);
    const toPaper = viewportTransform(g);
    const toModel = invert(toPaper);
    out.push({
      entity,
      clip,
      clipBox: boxOf(clip),
      toPaper,
      toModel,
      scale: g.height / g.viewHeight,
      frozenLayers: new Set(g.frozenLayerHandles.map((h) => layerByHandle.get(h.toUpperCase())).filter((n): n is string => n !== undefined)),
      modelBox: boxOf(clip.map((p) => apply(toModel, p))),
    });
  }
  return out;
}

function clipOutline(index: DrawingIndex, g: ViewportGeometry): Vec2[] {
  const clipEntity = g.clipHandle ? index.doc.entitiesByHandle.get(g.clipHandle.toUpperCase()) : undefined;
  if (clipEntity) {
    const outline = index.primitives(clipEntity).flatMap((p) => (p.kind === 'path' ? p.points : []));
    if (outline.length >= 3) return outline;
  }
  const w = g.width / 2;
  const h = g.height / 2;
  return [
    { x: g.center.x - w, y: g.center.y - h },
    { x: g.center.x + w, y: g.center.y - h },
    { x: g.center.x + w, y: g.center.y + h },
    { x: g.center.x - w, y: g.center.y + h },
  ];
}

/** Even-odd point-in-polygon test (clip outlines may be any simple polygon). */
export function insidePolygon(p: Vec2, polygon: Vec2[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i] as Vec2;
    const b = polygon[j] as Vec2;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

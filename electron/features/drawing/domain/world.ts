import { apply, arcPoints, bulgePolylinePoints, compose, ellipsePoints, IDENTITY, insertTransform, rotationOf, scaleOf, splinePoints, type Affine } from './geometry';
import type { DxfDocument, DxfEntity, DxfGeometry, TextGeometry, Vec2 } from './model';

/** A colour after BYLAYER/BYBLOCK resolution: ACI index, or 24-bit RGB when `rgb` is set. */
export interface ResolvedColor {
  aci: number;
  rgb?: number;
}

/** Drawable pieces of an entity in world (layout) coordinates. */
export type Primitive =
  | { kind: 'path'; points: Vec2[]; closed: boolean; filled: boolean; color: ResolvedColor; layer: string }
  | { kind: 'text'; text: string; at: Vec2; height: number; rotation: number; hAlign: number; vAlign: number; mtext: boolean; color: ResolvedColor; layer: string; tag?: string };

/** Block nesting deeper than this is treated as a cycle (self-referencing blocks exist in the wild). */
const MAX_NESTING = 16;
/** MINSERT arrays larger than this are drawn as their first cell only (bounds render work). */
const MAX_ARRAY_CELLS = 10_000;

interface Context {
  transform: Affine;
  /** Layer that entities on layer "0" inherit inside a block. */
  blockLayer: string | undefined;
  blockColor: ResolvedColor | undefined;
  depth: number;
  /** Skip entities on layers that are off or frozen (what a reviewer sees). */
  visibleOnly: boolean;
}

export interface FlattenOptions {
  visibleOnly?: boolean;
}

/** Expands one top-level entity (blocks, attributes and dimension blocks included) into primitives. */
export function flattenEntity(doc: DxfDocument, entity: DxfEntity, options: FlattenOptions = {}): Primitive[] {
  const out: Primitive[] = [];
  emit(doc, entity, { transform: IDENTITY, blockLayer: undefined, blockColor: undefined, depth: 0, visibleOnly: options.visibleOnly ?? false }, out);
  return out;
}

function effectiveLayer(entity: DxfEntity, ctx: Context): string {
  return entity.layer === '0' && ctx.blockLayer !== undefined ? ctx.blockLayer : entity.layer;
}

function resolveColor(doc: DxfDocument, entity: DxfEntity, layerName: string, ctx: Context): ResolvedColor {
  if (entity.trueColor !== undefined) return { aci: 7, rgb: entity.trueColor };
  if (entity.color === 0) return ctx.blockColor ?? { aci: 7 };
  if (entity.color > 0 && entity.color < 256) return { aci: entity.color };
  const layer = doc.layers.get(layerName.toUpperCase());
  if (!layer) return { aci: 7 };
  return layer.trueColor !== undefined ? { aci: layer.color, rgb: layer.trueColor } : { aci: layer.color };
}

function isHidden(doc: DxfDocument, layerName: string): boolean {
  const layer = doc.layers.get(layerName.toUpperCase());
  return layer !== undefined && (layer.off || layer.frozen);
}

function emit(doc: DxfDocument, entity: DxfEntity, ctx: Context, out: Primitive[]): void {
  const layer = effectiveLayer(entity, ctx);
  if (ctx.visibleOnly && isHidden(doc, layer)) return;
  const color = resolveColor(doc, entity, layer, ctx);
  const m = ctx.transform;
  const path = (points: Vec2[], closed = false, filled = false): void => {
    if (points.length > 0) out.push({ kind: 'path', points: points.map((p) => apply(m, p)), closed, filled, color, layer });
  };
  const g: DxfGeometry = entity.geometry;
  switch (g.kind) {
    case 'line':
      path([g.a, g.b]);
      return;
    case 'point':
      path([g.at, g.at]);
      return;
    case 'circle':
      path(arcPoints(g.center, Math.abs(g.radius), 0, 360), true);
      return;
    case 'arc':
      path(arcPoints(g.center, Math.abs(g.radius), g.startAngle, g.endAngle));
      return;
    case 'ellipse':
      path(ellipsePoints(g.center, g.majorAxis, g.ratio, g.startParam, g.endParam));
      return;
    case 'polyline':
      path(bulgePolylinePoints(g.vertices, g.closed));
      return;
    case 'spline':
      path(g.controlPoints.length > 1 ? splinePoints(g.degree, g.controlPoints, g.knots, g.weights) : g.fitPoints, g.closed);
      return;
    case 'hatch':
      for (const loop of g.loops) path(loop, true);
      return;
    case 'leader':
      path(g.vertices);
      if (g.text) out.push(textPrimitive({ kind: 'text', text: g.text, raw: g.text, at: g.vertices[g.vertices.length - 1] ?? { x: 0, y: 0 }, height: 2.5, rotation: 0, hAlign: 0, vAlign: 1, width: 0, mtext: true }, m, color, layer));
      return;
    case 'solid':
      path(g.corners, true, entity.type === 'SOLID');
      return;
    case 'text':
      if (g.text.trim()) out.push(textPrimitive(g, m, color, layer));
      return;
    case 'insert':
      emitInsert(doc, g, ctx, layer, color, out);
      return;
    case 'dimension':
      emitBlock(doc, g.blockName, { ...ctx, blockLayer: layer, blockColor: color, depth: ctx.depth + 1 }, out);
      return;
    default:
      return;
  }
}

function textPrimitive(g: TextGeometry, m: Affine, color: ResolvedColor, layer: string): Primitive {
  const text: Primitive = {
    kind: 'text',
    text: g.text,
    at: apply(m, g.at),
    height: g.height * scaleOf(m),
    rotation: g.rotation + rotationOf(m),
    hAlign: g.hAlign,
    vAlign: g.vAlign,
    mtext: g.mtext,
    color,
    layer,
  };
  if (g.tag !== undefined) text.tag = g.tag;
  return text;
}

function emitInsert(doc: DxfDocument, g: Extract<DxfGeometry, { kind: 'insert' }>, ctx: Context, layer: string, color: ResolvedColor, out: Primitive[]): void {
  const block = doc.blocks.get(g.name.toUpperCase());
  if (block && ctx.depth < MAX_NESTING) {
    const cells = g.columns * g.rows <= MAX_ARRAY_CELLS ? { columns: g.columns, rows: g.rows } : { columns: 1, rows: 1 };
    for (let row = 0; row < cells.rows; row++) {
      for (let column = 0; column < cells.columns; column++) {
        // MINSERT spacing is along the rotated block axes.
        const r = (g.rotation * Math.PI) / 180;
        const dx = column * g.columnSpacing;
        const dy = row * g.rowSpacing;
        const at = { x: g.at.x + dx * Math.cos(r) - dy * Math.sin(r), y: g.at.y + dx * Math.sin(r) + dy * Math.cos(r) };
        const transform = compose(ctx.transform, insertTransform(at, g.scaleX, g.scaleY, g.rotation, block.basePoint));
        const inner: Context = { ...ctx, transform, blockLayer: layer, blockColor: color, depth: ctx.depth + 1 };
        for (const child of block.entities) if (child.type !== 'ATTDEF') emit(doc, child, inner, out);
      }
    }
  }
  // Attributes are stored in world coordinates of the insert's own space.
  for (const attrib of g.attribs) emit(doc, attrib, ctx, out);
}

function emitBlock(doc: DxfDocument, name: string, ctx: Context, out: Primitive[]): void {
  const block = doc.blocks.get(name.toUpperCase());
  if (!block || ctx.depth >= MAX_NESTING) return;
  for (const child of block.entities) emit(doc, child, ctx, out);
}

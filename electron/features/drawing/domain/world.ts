import { composeCell, insertCells, MAX_EXPANDED_ENTITIES, MAX_NESTING, tooComplex } from './blockExpansion';
import { apply, arcPoints, bulgePolylinePoints, ellipsePoints, IDENTITY, rotationOf, scaleOf, splinePoints, type Affine } from './geometry';
import { fillDimensionPlaceholders } from './dimensionText';
import { hatchPatternSegments } from './hatchFill';
import { mlineEntities } from './mlines';
import { proxyEntities } from './proxyEntities';
import type { DxfDocument, DxfEntity, DxfGeometry, TextGeometry, Vec2 } from './model';
import type { MtextRun } from './textEscapes';
import { transformTextFrame } from './textFrame';

/** A colour after BYLAYER/BYBLOCK resolution: ACI index, or 24-bit RGB when `rgb` is set. */
export interface ResolvedColor {
  aci: number;
  rgb?: number;
}

/** Drawable pieces of an entity in world (layout) coordinates. */
export type Primitive =
  | {
      kind: 'path';
      points: Vec2[];
      closed: boolean;
      filled: boolean;
      color: ResolvedColor;
      layer: string;
      /** Lineweight in mm when it is not the default (0.25 mm). */
      weight?: number;
      /** Polyline width in world units (drawn as a stroke that wide). */
      width?: number;
      /** Dash pattern in world units (LTYPE × $LTSCALE × entity scale), absent for continuous lines. */
      dashes?: number[];
      /**
       * XLINE/RAY: the two points give the base and one unit along the direction; the renderer
       * extends them across the picture (both ways, or forward for a ray). Extents ignore the infinity.
       */
      infinite?: 'both' | 'forward';
      /** WIPEOUT: filled with the background, hiding what was drawn before it (the scene keeps the order). */
      mask?: true;
      /** Gradient HATCH: the outline is filled blending `colors` (the fill colour `color` is the first). */
      gradient?: { name: string; /** radians, counter-clockwise */ angle: number; shift: number; colors: ResolvedColor[]; /** one-colour gradient: the first colour blends towards black (0) or white (1) */ tint?: number };
    }
  | {
      kind: 'text';
      text: string;
      at: Vec2;
      height: number;
      rotation: number;
      hAlign: number;
      vAlign: number;
      mtext: boolean;
      color: ResolvedColor;
      layer: string;
      tag?: string;
      wrapWidth?: number;
      /** Glyphs seen from behind (see TextFrame): a mirrored insert, backward/upside-down text, extrusion −Z. */
      mirrored?: boolean;
      /** Glyph x scale relative to the height when not 1 (TEXT 41, non-uniform insert scales). */
      widthFactor?: number;
      /** Oblique angle in degrees when not 0. */
      oblique?: number;
      /** MTEXT runs per line when it has stacks; `text` holds their plain reading. */
      runs?: MtextRun[][];
    };

interface Context {
  transform: Affine;
  /** Layer that entities on layer "0" inherit inside a block. */
  blockLayer: string | undefined;
  blockColor: ResolvedColor | undefined;
  /** Lineweight (1/100 mm) that BYBLOCK entities inside a block take. */
  blockWeight: number;
  /** Linetype that BYBLOCK entities inside a block take. */
  blockLineType: string;
  depth: number;
  /** Skip entities on layers that are off or frozen (what a reviewer sees). */
  visibleOnly: boolean;
  /** Upper-case names of the blocks being expanded: a block inside itself is not expanded again. */
  stack: readonly string[];
  /** Entities still allowed in this expansion (shared by the whole flatten call). */
  budget: { remaining: number; root: DxfEntity };
}

export interface FlattenOptions {
  visibleOnly?: boolean;
  /** Most entities the expansion may visit (default MAX_EXPANDED_ENTITIES). */
  budget?: number;
}

/**
 * Expands one top-level entity (blocks, attributes and dimension blocks included) into primitives.
 * Throws CAD_DXF_TOO_COMPLEX when the expansion visits more entities than the budget (callers
 * that know the count beforehand, see BlockExpansion, refuse before doing any work).
 */
export function flattenEntity(doc: DxfDocument, entity: DxfEntity, options: FlattenOptions = {}): Primitive[] {
  const out: Primitive[] = [];
  const budget = options.budget ?? MAX_EXPANDED_ENTITIES;
  emit(doc, entity, { transform: IDENTITY, blockLayer: undefined, blockColor: undefined, blockWeight: -3, blockLineType: 'CONTINUOUS', depth: 0, visibleOnly: options.visibleOnly ?? false, stack: [], budget: { remaining: budget, root: entity } }, out);
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

/** AutoCAD's default lineweight, 0.25 mm (in 1/100 mm). */
const DEFAULT_WEIGHT = 25;

/** Lineweight in 1/100 mm after BYLAYER/BYBLOCK/DEFAULT resolution. */
function resolveWeight(doc: DxfDocument, entity: DxfEntity, layerName: string, ctx: Context): number {
  const own = entity.lineweight ?? -1;
  const resolved = own === -1 ? (doc.layers.get(layerName.toUpperCase())?.lineweight ?? -3) : own === -2 ? ctx.blockWeight : own;
  return resolved < 0 ? DEFAULT_WEIGHT : resolved;
}

/** Linetype name (upper case) after BYLAYER/BYBLOCK resolution. */
function resolveLineType(doc: DxfDocument, entity: DxfEntity, layerName: string, ctx: Context): string {
  const own = (entity.lineType ?? 'BYLAYER').toUpperCase();
  if (own === 'BYLAYER') return (doc.layers.get(layerName.toUpperCase())?.lineType ?? 'CONTINUOUS').toUpperCase();
  return own === 'BYBLOCK' ? ctx.blockLineType : own;
}

/** IMAGE/WIPEOUT clip outline in world coordinates (pixel boundary, origin top-left, mapped through the pixel axes). */
function imageOutline(g: Extract<DxfGeometry, { kind: 'image' }>): Vec2[] {
  const corners = g.boundary.length >= 3 ? g.boundary : g.boundary.length === 2 ? [g.boundary[0]!, { x: g.boundary[1]!.x, y: g.boundary[0]!.y }, g.boundary[1]!, { x: g.boundary[0]!.x, y: g.boundary[1]!.y }] : [{ x: -0.5, y: -0.5 }, { x: g.size.x - 0.5, y: -0.5 }, { x: g.size.x - 0.5, y: g.size.y - 0.5 }, { x: -0.5, y: g.size.y - 0.5 }];
  const origin = { x: g.at.x + g.u.x * 0.5 - g.v.x * 0.5, y: g.at.y + g.u.y * 0.5 - g.v.y * 0.5 };
  return corners.map((p) => ({ x: origin.x + g.u.x * p.x + g.v.x * (g.size.y - p.y), y: origin.y + g.u.y * p.x + g.v.y * (g.size.y - p.y) }));
}

/** Header number or a fallback (linetype scales). */
function headerNumber(doc: DxfDocument, name: string, fallback: number): number {
  const v = Number.parseFloat(doc.header.get(name)?.values[0]?.value ?? '');
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Dash pattern in world units: LTYPE lengths × $LTSCALE × entity scale (48) × block scale; undefined when continuous. */
function dashPattern(doc: DxfDocument, lineType: string, entityScale: number, blockScale: number): number[] | undefined {
  const pattern = doc.lineTypePatterns?.get(lineType);
  if (!pattern) return undefined;
  const k = headerNumber(doc, '$LTSCALE', 1) * (entityScale > 0 ? entityScale : 1) * blockScale;
  return pattern.map((d) => d * k);
}

function isHidden(doc: DxfDocument, layerName: string): boolean {
  const layer = doc.layers.get(layerName.toUpperCase());
  return layer !== undefined && (layer.off || layer.frozen);
}

function emit(doc: DxfDocument, entity: DxfEntity, ctx: Context, out: Primitive[]): void {
  if (--ctx.budget.remaining < 0) throw tooComplex(ctx.budget.root, Number.POSITIVE_INFINITY, MAX_EXPANDED_ENTITIES);
  const layer = effectiveLayer(entity, ctx);
  if (ctx.visibleOnly && isHidden(doc, layer)) return;
  const color = resolveColor(doc, entity, layer, ctx);
  const weight = resolveWeight(doc, entity, layer, ctx);
  const lineType = resolveLineType(doc, entity, layer, ctx);
  const dashes = dashPattern(doc, lineType, entity.lineTypeScale ?? 1, scaleOf(ctx.transform));
  const m = ctx.transform;
  const path = (points: Vec2[], closed = false, filled = false, width = 0, dashed = true): Extract<Primitive, { kind: 'path' }> | undefined => {
    if (points.length === 0) return undefined;
    const p: Primitive = { kind: 'path', points: points.map((q) => apply(m, q)), closed, filled, color, layer };
    if (weight > 0 && weight !== DEFAULT_WEIGHT) p.weight = weight / 100;
    if (width > 0) p.width = width * scaleOf(m);
    if (dashes && !filled && dashed) p.dashes = dashes;
    out.push(p);
    return p;
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
      path(bulgePolylinePoints(g.vertices, g.closed), false, false, g.width ?? 0);
      return;
    case 'mesh':
      for (const [a, b] of g.edges) path([a, b]);
      return;
    case 'spline':
      path(g.controlPoints.length > 1 ? splinePoints(g.degree, g.controlPoints, g.knots, g.weights) : g.fitPoints, g.closed);
      return;
    case 'hatch': {
      if (g.gradient) {
        const colors = g.gradient.colors.map((c) => (c.rgb === undefined ? { aci: c.aci } : { aci: c.aci, rgb: c.rgb }));
        const oneColor = g.gradient.oneColor || colors.length === 1;
        const gradient = { name: g.gradient.name, angle: g.gradient.angle + (rotationOf(m) * Math.PI) / 180, shift: g.gradient.shift, colors: colors.length > 0 ? (oneColor ? colors.slice(0, 1) : colors) : [color], ...(oneColor ? { tint: g.gradient.tint } : {}) };
        for (const loop of g.loops) {
          const p = path(loop, true, true);
          if (p) p.gradient = gradient;
        }
        return;
      }
      // pattern lines are drawn continuous: their dashes are the pattern's own
      const pattern = hatchPatternSegments(doc, g);
      // pattern pieces count against the expansion budget: a dense hatch in a block inserted many times stays bounded
      if (pattern && (ctx.budget.remaining -= pattern.segments.length) < 0) throw tooComplex(ctx.budget.root, Number.POSITIVE_INFINITY, MAX_EXPANDED_ENTITIES);
      if (pattern) for (const [a, b] of pattern.segments) path([a, b], false, false, 0, false);
      else for (const loop of g.loops) path(loop, true, g.solid);
      return;
    }
    case 'leader':
      path(g.vertices);
      if (g.arrow) path(arrowhead(g.vertices, leaderArrowSize(doc)), true, true);
      if (g.text) out.push(textPrimitive({ kind: 'text', text: g.text, raw: g.text, at: g.vertices[g.vertices.length - 1] ?? { x: 0, y: 0 }, height: 2.5, rotation: 0, hAlign: 0, vAlign: 1, width: 0, mtext: true }, m, color, layer));
      return;
    case 'solid':
      path(g.corners, true, entity.type === 'SOLID');
      return;
    case 'image': {
      const outline = imageOutline(g);
      if (g.wipeout) {
        const mask = path(outline, true, true);
        if (mask) mask.mask = true;
        return;
      }
      path(outline, true);
      const [p0, , p2] = outline;
      if (g.name && p0 && p2) {
        const height = Math.min(Math.hypot(g.v.x, g.v.y) * g.size.y, Math.hypot(g.u.x, g.u.y) * g.size.x) / 12;
        out.push(textPrimitive({ kind: 'text', text: g.name, raw: g.name, at: { x: (p0.x + p2.x) / 2, y: (p0.y + p2.y) / 2 }, height, rotation: (Math.atan2(g.u.y, g.u.x) * 180) / Math.PI, hAlign: 1, vAlign: 2, width: 0, mtext: false }, m, color, layer));
      }
      return;
    }
    case 'xline': {
      path([g.at, { x: g.at.x + g.direction.x, y: g.at.y + g.direction.y }]);
      const last = out[out.length - 1];
      if (last?.kind === 'path') last.infinite = g.ray ? 'forward' : 'both';
      return;
    }
    case 'text':
      // a free-standing ATTDEF shows its tag, as AutoCAD draws attribute definitions outside blocks
      if (entity.type === 'ATTDEF' && g.tag) out.push(textPrimitive({ ...g, text: g.tag }, m, color, layer));
      else if (g.text.trim()) out.push(textPrimitive(g, m, color, layer));
      return;
    case 'insert':
      emitInsert(doc, g, { ...ctx, blockWeight: weight, blockLineType: lineType }, layer, color, out);
      return;
    case 'mline': {
      const inner: Context = { ...ctx, blockLayer: layer, blockColor: color, blockWeight: weight, blockLineType: lineType };
      for (const child of mlineEntities(entity, g, doc.mlineStyles)) emit(doc, child, inner, out);
      return;
    }
    case 'proxy': {
      const inner: Context = { ...ctx, blockLayer: layer, blockColor: color, blockWeight: weight, blockLineType: lineType };
      for (const child of proxyEntities(doc, entity, g.graphics)) emit(doc, child, inner, out);
      return;
    }
    case 'dimension': {
      const first = out.length;
      emitBlock(doc, g.blockName, { ...ctx, blockLayer: layer, blockColor: color, blockWeight: weight, blockLineType: lineType }, out);
      fillDimensionPlaceholders(doc, entity, out.slice(first).filter((p) => p.kind === 'text'));
      return;
    }
    default:
      return;
  }
}

/** Arrowhead size of leaders: $DIMASZ × $DIMSCALE from the header (AutoCAD's defaults 2.5 and 1 otherwise). */
function leaderArrowSize(doc: DxfDocument): number {
  const value = (name: string, fallback: number): number => {
    const v = Number.parseFloat(doc.header.get(name)?.values[0]?.value ?? '');
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return value('$DIMASZ', 2.5) * value('$DIMSCALE', 1);
}

/** Closed filled arrowhead at the first vertex, pointing away from the second (AutoCAD's default). */
function arrowhead(vertices: Vec2[], size: number): Vec2[] {
  const [tip, next] = vertices;
  if (!tip || !next) return [];
  const length = Math.hypot(next.x - tip.x, next.y - tip.y);
  if (length === 0) return [];
  const ux = (next.x - tip.x) / length;
  const uy = (next.y - tip.y) / length;
  const s = Math.min(size, length / 2);
  const w = s / 6; // AutoCAD's closed filled arrow: 1/3 of its length wide
  return [tip, { x: tip.x + ux * s - uy * w, y: tip.y + uy * s + ux * w }, { x: tip.x + ux * s + uy * w, y: tip.y + uy * s - ux * w }];
}

function textPrimitive(g: TextGeometry, m: Affine, color: ResolvedColor, layer: string): Primitive {
  return transformText({ kind: 'text', text: g.text, at: g.at, height: g.height, rotation: g.rotation, hAlign: g.hAlign, vAlign: g.vAlign, mtext: g.mtext, color, layer, ...(g.tag === undefined ? {} : { tag: g.tag }), ...(g.mtext && g.width > 0 ? { wrapWidth: g.width } : {}), ...(g.mirrored ? { mirrored: true } : {}), ...(g.widthFactor ? { widthFactor: g.widthFactor } : {}), ...(g.oblique ? { oblique: g.oblique } : {}), ...(g.runs ? { runs: g.runs } : {}) }, m);
}

/**
 * A text primitive moved through an affine map (block insert, viewport): position, height, and
 * frame (rotation, mirroring, width factor; see transformTextFrame). MTEXT wraps to its
 * reference width measured along the moved baseline.
 */
export function transformText(p: Extract<Primitive, { kind: 'text' }>, m: Affine): Extract<Primitive, { kind: 'text' }> {
  const before = p.widthFactor ?? 1;
  const { frame, heightScale } = transformTextFrame({ rotation: p.rotation, mirrored: p.mirrored === true, widthFactor: before }, m);
  const out: Extract<Primitive, { kind: 'text' }> = { ...p, at: apply(m, p.at), height: p.height * heightScale, rotation: frame.rotation };
  if (frame.mirrored) out.mirrored = true;
  else delete out.mirrored;
  if (Math.abs(frame.widthFactor - 1) > 1e-9) out.widthFactor = frame.widthFactor;
  else delete out.widthFactor;
  if (p.wrapWidth !== undefined) out.wrapWidth = (p.wrapWidth * heightScale * frame.widthFactor) / before;
  return out;
}

function emitInsert(doc: DxfDocument, g: Extract<DxfGeometry, { kind: 'insert' }>, ctx: Context, layer: string, color: ResolvedColor, out: Primitive[]): void {
  const key = g.name.toUpperCase();
  const block = doc.blocks.get(key);
  if (block && ctx.depth < MAX_NESTING && !ctx.stack.includes(key)) {
    const cells = insertCells(g);
    const stack = [...ctx.stack, key];
    for (let row = 0; row < cells.rows; row++) {
      for (let column = 0; column < cells.columns; column++) {
        const inner: Context = { ...ctx, transform: composeCell(ctx.transform, g, block.basePoint, column, row), blockLayer: layer, blockColor: color, depth: ctx.depth + 1, stack };
        for (const child of block.entities) if (child.type !== 'ATTDEF') emit(doc, child, inner, out);
      }
    }
  }
  // Attributes are stored in world coordinates of the insert's own space.
  for (const attrib of g.attribs) emit(doc, attrib, ctx, out);
}

function emitBlock(doc: DxfDocument, name: string, ctx: Context, out: Primitive[]): void {
  const key = name.toUpperCase();
  const block = doc.blocks.get(key);
  if (!block || ctx.depth >= MAX_NESTING || ctx.stack.includes(key)) return;
  const inner: Context = { ...ctx, depth: ctx.depth + 1, stack: [...ctx.stack, key] };
  for (const child of block.entities) emit(doc, child, inner, out);
}

import { AppError } from '../../../../shared/errors';
import type { DrawingIndex } from './bounds';
import { isEmptyBox } from './geometry';
import type { Box, DxfEntity, DxfGeometry, DxfLayout } from './model';

/** Rounds for JSON output: 6 significant decimals are far below drawing precision needs. */
export function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

export function boxJson(box: Box): [number, number, number, number] | null {
  return isEmptyBox(box) ? null : [r6(box.minX), r6(box.minY), r6(box.maxX), r6(box.maxY)];
}

/** The layout called `name` (case-insensitive), Model when omitted. Throws CAD_DXF_LAYOUT_NOT_FOUND. */
export function layoutByName(index: DrawingIndex, name: string | undefined): DxfLayout {
  const wanted = (name ?? 'Model').toUpperCase();
  const layout = index.doc.layouts.find((l) => l.name.toUpperCase() === wanted);
  if (!layout) throw new AppError('CAD_DXF_LAYOUT_NOT_FOUND', `layout "${name}" does not exist; layouts: ${index.doc.layouts.map((l) => l.name).join(', ')}`, { data: { layout: name } });
  return layout;
}

export interface EntityFilter {
  layout?: string;
  types?: string[];
  layers?: string[];
  bbox?: Box;
}

/** Top-level entities of a layout matching type/layer (case-insensitive) and box-intersection filters. */
export function filterEntities(index: DrawingIndex, filter: EntityFilter): DxfEntity[] {
  const layout = layoutByName(index, filter.layout);
  const types = filter.types?.length ? new Set(filter.types.map((t) => t.toUpperCase())) : undefined;
  const layers = filter.layers?.length ? new Set(filter.layers.map((l) => l.toUpperCase())) : undefined;
  const candidates = filter.bbox ? index.entitiesIn(layout, filter.bbox) : layout.entities;
  if (!types && !layers) return candidates;
  // layer names repeat across thousands of entities: upper-case each distinct name once
  const upper = new Map<string, string>();
  const layerKey = (name: string): string => {
    let key = upper.get(name);
    if (key === undefined) upper.set(name, (key = name.toUpperCase()));
    return key;
  };
  return candidates.filter((entity) => (!types || types.has(entity.type)) && (!layers || layers.has(layerKey(entity.layer))));
}

function pt(p: { x: number; y: number }): [number, number] {
  return [r6(p.x), r6(p.y)];
}

/** JSON-friendly geometry (long vertex lists are summarised, not dumped). */
export function geometryJson(g: DxfGeometry): Record<string, unknown> {
  switch (g.kind) {
    case 'line':
      return { start: pt(g.a), end: pt(g.b), length: r6(Math.hypot(g.b.x - g.a.x, g.b.y - g.a.y)) };
    case 'point':
      return { at: pt(g.at) };
    case 'circle':
      return { center: pt(g.center), radius: r6(g.radius) };
    case 'arc':
      return { center: pt(g.center), radius: r6(g.radius), startAngle: r6(g.startAngle), endAngle: r6(g.endAngle) };
    case 'ellipse':
      return { center: pt(g.center), majorAxis: pt(g.majorAxis), ratio: r6(g.ratio), startParam: r6(g.startParam), endParam: r6(g.endParam) };
    case 'polyline':
      return { closed: g.closed, vertexCount: g.vertices.length, vertices: g.vertices.slice(0, 200).map((v) => (v.bulge ? [r6(v.x), r6(v.y), r6(v.bulge)] : pt(v))) };
    case 'spline':
      return { degree: g.degree, closed: g.closed, controlPointCount: g.controlPoints.length, fitPointCount: g.fitPoints.length };
    case 'text':
      return { text: g.text, raw: g.raw, at: pt(g.at), height: r6(g.height), rotation: r6(g.rotation), ...(g.tag === undefined ? {} : { tag: g.tag }) };
    case 'insert':
      return { block: g.name, at: pt(g.at), scale: [r6(g.scaleX), r6(g.scaleY)], rotation: r6(g.rotation), ...(g.columns * g.rows > 1 ? { columns: g.columns, rows: g.rows } : {}), attributes: g.attribs.map((a) => ({ handle: a.handle, ...(a.geometry.kind === 'text' ? { tag: a.geometry.tag ?? '', text: a.geometry.text } : {}) })) };
    case 'dimension':
      return { block: g.blockName, dimType: g.dimType, measurement: g.measurement === null ? null : r6(g.measurement), textOverride: g.textOverride, textAt: pt(g.textAt) };
    case 'hatch':
      return { loopCount: g.loops.length, ...(g.pattern ? { pattern: g.pattern.name } : {}), ...(g.gradient ? { gradient: g.gradient.name } : {}) };
    case 'mesh':
      return { mesh: g.polyface ? 'polyface' : 'polygon', edgeCount: g.edges.length };
    case 'mline':
      return { style: g.styleName, vertexCount: g.vertices.length, closed: (g.flags & 2) !== 0 };
    case 'proxy':
      return { proxyGraphicsBytes: g.graphics.length };
    case 'leader':
      return { vertices: g.vertices.map(pt), ...(g.text ? { text: g.text } : {}) };
    case 'solid':
      return { corners: g.corners.map(pt) };
    case 'viewport':
      return { center: pt(g.center), width: r6(g.width), height: r6(g.height), viewCenter: pt(g.viewCenter), viewHeight: r6(g.viewHeight), id: g.id };
    default:
      return {};
  }
}

export function entityJson(index: DrawingIndex, entity: DxfEntity): Record<string, unknown> {
  return { handle: entity.handle, type: entity.type, layer: entity.layer, color: entity.color, bbox: boxJson(index.box(entity)), ...geometryJson(entity.geometry) };
}

/** Counts by entity type, sorted by type name. */
export function countByType(entities: DxfEntity[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of entities) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/** How many times each block is inserted anywhere (layouts and other blocks, MINSERT cells once). */
export function insertCounts(index: DrawingIndex): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (entities: DxfEntity[]): void => {
    for (const e of entities) if (e.geometry.kind === 'insert') counts.set(e.geometry.name.toUpperCase(), (counts.get(e.geometry.name.toUpperCase()) ?? 0) + 1);
  };
  for (const layout of index.doc.layouts) visit(layout.entities);
  for (const block of index.doc.blocks.values()) if (!block.name.startsWith('*')) visit(block.entities);
  return counts;
}

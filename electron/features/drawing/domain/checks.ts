import type { DxfEntity, DxfGeometry } from './model';

export interface ZeroLengthFinding {
  entity: DxfEntity;
  reason: 'zero_length' | 'zero_radius';
}

/** LINEs and polylines with no length, CIRCLEs/ARCs with radius ≤ tolerance. */
export function findZeroLength(entities: DxfEntity[], tolerance: number): ZeroLengthFinding[] {
  const out: ZeroLengthFinding[] = [];
  for (const entity of entities) {
    const g = entity.geometry;
    if (g.kind === 'line' && Math.hypot(g.b.x - g.a.x, g.b.y - g.a.y, g.z2 - g.z1) <= tolerance) out.push({ entity, reason: 'zero_length' });
    else if (g.kind === 'polyline' && g.vertices.length > 0 && g.vertices.every((v) => Math.hypot(v.x - (g.vertices[0]?.x ?? 0), v.y - (g.vertices[0]?.y ?? 0)) <= tolerance)) out.push({ entity, reason: 'zero_length' });
    else if ((g.kind === 'circle' || g.kind === 'arc') && g.radius <= tolerance) out.push({ entity, reason: 'zero_radius' });
  }
  return out;
}

/**
 * A geometry signature with coordinates snapped to the tolerance grid; equal signatures mean
 * duplicates. Undirected shapes (LINE) are normalised so a reversed copy is a duplicate too.
 * Two values straddling a grid boundary can miss each other; the tolerance is a grid, not a radius.
 */
function signature(entity: DxfEntity, tolerance: number): string | undefined {
  const q = (v: number): number => Math.round(v / tolerance);
  const p = (v: { x: number; y: number }): string => `${q(v.x)},${q(v.y)}`;
  const g: DxfGeometry = entity.geometry;
  const head = `${entity.type}|${entity.layer.toUpperCase()}|`;
  switch (g.kind) {
    case 'line': {
      const [a, b] = [p(g.a), p(g.b)].sort();
      return `${head}${a}|${b}`;
    }
    case 'circle':
      return `${head}${p(g.center)}|${q(g.radius)}`;
    case 'arc':
      return `${head}${p(g.center)}|${q(g.radius)}|${Math.round(g.startAngle * 1000)}|${Math.round(g.endAngle * 1000)}`;
    case 'ellipse':
      return `${head}${p(g.center)}|${p(g.majorAxis)}|${Math.round(g.ratio * 1e6)}|${Math.round(g.startParam * 1e6)}|${Math.round(g.endParam * 1e6)}`;
    case 'polyline':
      return `${head}${g.closed}|${g.vertices.map((v) => `${p(v)}:${Math.round(v.bulge * 1e6)}`).join(';')}`;
    case 'point':
      return `${head}${p(g.at)}`;
    case 'text':
      return `${head}${p(g.at)}|${q(g.height)}|${g.text}`;
    case 'insert':
      return `${head}${g.name.toUpperCase()}|${p(g.at)}|${g.scaleX}|${g.scaleY}|${g.rotation}`;
    default:
      return undefined;
  }
}

/** Groups (≥ 2 members) of entities with the same type, layer and geometry within `tolerance`. */
export function findDuplicates(entities: DxfEntity[], tolerance: number): DxfEntity[][] {
  const groups = new Map<string, DxfEntity[]>();
  for (const entity of entities) {
    const key = signature(entity, tolerance);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(entity);
    else groups.set(key, [entity]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

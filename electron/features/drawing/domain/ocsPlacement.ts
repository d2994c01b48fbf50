import type { DxfGeometry, Vec2 } from './model';
import { applyPlan, applyPlanLinear, arbitraryAxis, ellipseFromConjugate, isDefaultExtrusion, planIsRigid, planMap, planMirrors, type Vec3 } from './ocs';
import type { TagView } from './tagView';

/** Entities whose points are in their OCS (ELLIPSE is WCS, but its extrusion orients its minor axis). */
const OCS_TYPES = new Set(['CIRCLE', 'ARC', 'ELLIPSE', 'LWPOLYLINE', 'POLYLINE', 'SOLID', 'TRACE', 'HATCH', 'INSERT']);
/** POLYLINE flags whose vertices are WCS (3D polyline 8, polygon mesh 16, polyface 64). */
const WCS_POLYLINE_FLAGS = 8 | 16 | 64;

/** Where an entity's OCS lies: its extrusion and the elevation (OCS z) of its plane. */
export interface OcsPlacement {
  extrusion: Vec3;
  elevation: number;
}

/**
 * The OCS placement of an entity header, or null when its points are already WCS plan points
 * (default extrusion, or an entity type without an OCS; TEXT/MTEXT are placed by textFrame).
 */
export function readOcsPlacement(type: string, v: TagView): OcsPlacement | null {
  if (!OCS_TYPES.has(type)) return null;
  if (type === 'POLYLINE' && (v.num(70) & WCS_POLYLINE_FLAGS) !== 0) return null;
  const extrusion = { x: v.num(210), y: v.num(220), z: v.num(230, 1) };
  if (isDefaultExtrusion(extrusion)) return null;
  return { extrusion, elevation: v.num(type === 'LWPOLYLINE' ? 38 : 30) };
}

/**
 * Maps an OCS geometry (complete: a POLYLINE with its vertices) to the WCS plan view, the
 * arbitrary-axis algorithm giving the OCS axes. A mirrored OCS (extrusion towards −Z) flips
 * bulges and arc directions; a tilted one turns circles and arcs into ellipses. Returns the
 * geometry unchanged for kinds that carry no OCS points.
 */
export function placeOcsGeometry(g: DxfGeometry, placement: OcsPlacement): DxfGeometry {
  const axes = arbitraryAxis(placement.extrusion);
  const m = planMap(axes, placement.elevation);
  const p = (q: Vec2): Vec2 => applyPlan(m, q);
  const mappedAngle = (deg: number): number => {
    const d = applyPlanLinear(m, { x: Math.cos((deg * Math.PI) / 180), y: Math.sin((deg * Math.PI) / 180) });
    return (Math.atan2(d.y, d.x) * 180) / Math.PI;
  };
  switch (g.kind) {
    case 'circle':
    case 'arc': {
      const [start, end] = g.kind === 'circle' ? [0, 2 * Math.PI] : arcRange(g.startAngle, g.endAngle);
      if (planIsRigid(m)) {
        const center = p(g.center);
        if (g.kind === 'circle') return { ...g, center };
        const [a, b] = (planMirrors(m) ? [end, start] : [start, end]).map((t) => mappedAngle((t * 180) / Math.PI)) as [number, number];
        return { ...g, center, startAngle: a, endAngle: b };
      }
      const u = applyPlanLinear(m, { x: g.radius, y: 0 });
      const v = applyPlanLinear(m, { x: 0, y: g.radius });
      return { kind: 'ellipse', ...ellipseFromConjugate(p(g.center), u, v, start, end) };
    }
    case 'ellipse': {
      // WCS centre and major axis; the minor axis is extrusion × major (scaled by the ratio)
      const n = axes.az;
      const major = { x: g.majorAxis.x, y: g.majorAxis.y, z: 0 };
      const minor = { x: (n.y * major.z - n.z * major.y) * g.ratio, y: (n.z * major.x - n.x * major.z) * g.ratio };
      return { kind: 'ellipse', ...ellipseFromConjugate(g.center, g.majorAxis, minor, g.startParam, g.endParam) };
    }
    case 'polyline': {
      const flip = planMirrors(m) ? -1 : 1;
      return { ...g, vertices: g.vertices.map((vertex) => ({ ...p(vertex), bulge: vertex.bulge * flip })) };
    }
    case 'solid':
      return { ...g, corners: g.corners.map(p) };
    case 'hatch': {
      const placed: DxfGeometry = { ...g, loops: g.loops.map((loop) => loop.map(p)) };
      if (g.pattern) placed.pattern = { ...g.pattern, lines: g.pattern.lines.map((line) => ({ ...line, angle: mappedAngle(line.angle), base: p(line.base), offset: applyPlanLinear(m, line.offset) })) };
      return placed;
    }
    case 'insert': {
      if (!planIsRigid(m)) return g; // a block in a tilted plane needs a 3D transform: drawn in its OCS
      // plan map ∘ rotate(θ) ∘ scale(sx, sy): the map's own rotation, mirrored x when it mirrors
      const mirrored = planMirrors(m);
      return { ...g, at: p(g.at), rotation: mappedAngle(g.rotation) + (mirrored ? 180 : 0), scaleX: mirrored ? -g.scaleX : g.scaleX, columnSpacing: mirrored ? -g.columnSpacing : g.columnSpacing };
    }
    default:
      return g;
  }
}

/** An ARC's counter-clockwise range in radians (end after start). */
function arcRange(startDeg: number, endDeg: number): [number, number] {
  const start = (startDeg * Math.PI) / 180;
  let end = (endDeg * Math.PI) / 180;
  while (end <= start) end += 2 * Math.PI;
  return [start, end];
}

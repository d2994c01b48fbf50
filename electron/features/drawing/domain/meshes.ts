import type { Vec2 } from './model';

/** One VERTEX record of a mesh POLYLINE: its flags (70), position and, for a face record, its indices (71–74). */
export interface MeshVertexRecord {
  flags: number;
  at: Vec2;
  indices: number[];
}

/** VERTEX flags: 64 = a mesh vertex (polygon or polyface position), 128 = polyface record, 16 = spline-fit vertex. */
const MESH_VERTEX = 64;
const POLYFACE_RECORD = 128;
const SPLINE_FIT = 16;

/**
 * Edges of a polygon mesh (POLYLINE flag 16): M rows × N columns of vertices in row order,
 * joined along both directions, wrapping where the mesh is closed (70 bit 1 = in M, bit 32 = in
 * N). A smoothed surface stores its fitted grid (73 × 74 vertices) as spline-fit vertices,
 * which are drawn instead when present, as AutoCAD shows the smoothed surface.
 */
export function polygonMeshEdges(records: MeshVertexRecord[], m: number, n: number, smoothM: number, smoothN: number, closedM: boolean, closedN: boolean): [Vec2, Vec2][] {
  const fitted = records.filter((r) => (r.flags & SPLINE_FIT) !== 0).map((r) => r.at);
  const plain = records.filter((r) => (r.flags & SPLINE_FIT) === 0).map((r) => r.at);
  const [points, rows, columns] = fitted.length > 0 && fitted.length === smoothM * smoothN ? [fitted, smoothM, smoothN] : [plain, m, n];
  if (rows < 1 || columns < 1 || points.length < rows * columns) return [];
  const at = (i: number, j: number): Vec2 => points[i * columns + j] as Vec2;
  const edges: [Vec2, Vec2][] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      if (j + 1 < columns) edges.push([at(i, j), at(i, j + 1)]);
      else if (closedN && columns > 2) edges.push([at(i, j), at(i, 0)]);
      if (i + 1 < rows) edges.push([at(i, j), at(i + 1, j)]);
      else if (closedM && rows > 2) edges.push([at(i, j), at(0, j)]);
    }
  }
  return edges;
}

/**
 * Visible edges of a polyface mesh (POLYLINE flag 64): position records (flags 64 + 128) then
 * face records (128 only) naming 1-based positions; a negative index hides the edge that starts
 * at it. An edge shared by two faces is drawn once; indices out of range are ignored.
 */
export function polyfaceEdges(records: MeshVertexRecord[]): [Vec2, Vec2][] {
  const positions = records.filter((r) => (r.flags & MESH_VERTEX) !== 0).map((r) => r.at);
  const faces = records.filter((r) => (r.flags & POLYFACE_RECORD) !== 0 && (r.flags & MESH_VERTEX) === 0);
  const seen = new Set<string>();
  const edges: [Vec2, Vec2][] = [];
  for (const face of faces) {
    const indices = face.indices.filter((k) => k !== 0);
    for (let e = 0; e < indices.length; e++) {
      const from = indices[e] as number;
      const to = indices[(e + 1) % indices.length] as number;
      if (from < 0 || indices.length < 2) continue;
      const a = positions[Math.abs(from) - 1];
      const b = positions[Math.abs(to) - 1];
      const key = Math.min(Math.abs(from), Math.abs(to)) + ':' + Math.max(Math.abs(from), Math.abs(to));
      if (!a || !b || seen.has(key)) continue;
      seen.add(key);
      edges.push([a, b]);
    }
  }
  return edges;
}

import type { Vec3 } from './vec3';

/** Surface kinds reported in a snapshot (OpenCascade GeomAbs types folded to what authors need). */
export type FaceKind = 'plane' | 'cylinder' | 'cone' | 'sphere' | 'torus' | 'other';
export type EdgeKind = 'line' | 'circle' | 'ellipse' | 'bspline' | 'other';
export type TokenKind = 'face' | 'edge' | 'feature';

export interface BoundingBox {
  min: Vec3;
  max: Vec3;
}

/** One face of the current solid. `index` is internal (adjacency); authors only see `token`. */
export interface FaceInfo {
  token: string;
  index: number;
  kind: FaceKind;
  area_mm2: number;
  centroid: Vec3;
  bbox: BoundingBox;
  /** Outward unit normal, planes only. */
  normal?: Vec3;
  /** Axis (unit direction) of cylinders, cones, tori. */
  axis?: { origin: Vec3; direction: Vec3 };
  radius_mm?: number;
  /** Cylinders: true when material lies outside the surface (a bore), false for a boss/shaft. */
  concave?: boolean;
  /** Cylinders: angular extent of the face around its axis (360 for a full bore or shaft, 90 for a corner fillet). */
  angle_span_deg?: number;
  adjacent_faces: number[];
}

export interface EdgeInfo {
  token: string;
  index: number;
  kind: EdgeKind;
  length_mm: number;
  start: Vec3;
  end: Vec3;
  centre?: Vec3;
  radius_mm?: number;
  /** Circles: the point at mid-parameter, which tells which side of the chord an arc runs. */
  mid?: Vec3;
  adjacent_faces: number[];
}

/** A feature that can be the source of a pattern or mirror (it has a tool body). */
export interface FeatureRefInfo {
  token: string;
  feature_id: string;
  atomic_id: string;
  mode: 'add' | 'cut';
  /** Exact bbox of the feature's tool body (lets preflights prove a replayed copy misses the body). */
  tool_bbox?: BoundingBox;
}

export interface Measurements {
  solid_count: number;
  volume_mm3: number;
  area_mm2: number;
  /** Exact (optimal, tolerance-free) bounding box, not the mesh-inflated one. */
  bbox: BoundingBox;
}

/** Topology of one revision; every token is bound to `snapshot_id`. */
export interface TopologySnapshot {
  snapshot_id: string;
  faces: FaceInfo[];
  edges: EdgeInfo[];
  features: FeatureRefInfo[];
  measurements: Measurements;
}

const TOKEN_PREFIX: Record<TokenKind, string> = { face: 'fc_', edge: 'ed_', feature: 'ft_' };
const TOKEN_PATTERN = /^(fc|ed|ft)_([0-9a-f]{8})([0-9a-f]{12})$/;

/** Hex digest function injected by the adapter (sha256 there); the domain stays I/O-free. */
export type HexDigest = (text: string) => string;

/**
 * Opaque, deterministic token: kind prefix + 8 hex of the snapshot id (so a token from another
 * revision is recognisably stale) + 12 hex of digest(snapshot id, kind, geometric signature).
 * Two entities with the same signature get the same token, which resolution reports as ambiguous.
 */
export function mintToken(digest: HexDigest, snapshotId: string, kind: TokenKind, signature: string): string {
  return `${TOKEN_PREFIX[kind]}${snapshotId.slice(0, 8)}${digest(`${snapshotId}|${kind}|${signature}`).slice(0, 12)}`;
}

/** Parses a token's kind and snapshot tag; null when the string is not token-shaped. */
export function parseToken(token: string): { kind: TokenKind; snapshotTag: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const kind: TokenKind = match[1] === 'fc' ? 'face' : match[1] === 'ed' ? 'edge' : 'feature';
  return { kind, snapshotTag: match[2] ?? '' };
}

/** JSON Schema pattern accepted for a token of one kind (used in author schemas). */
export function tokenPattern(kind: TokenKind): string {
  return `^${TOKEN_PREFIX[kind]}[0-9a-f]{20}$`;
}

/** Small summary for reports and progress lines. */
export function summarizeTopology(snapshot: TopologySnapshot): Record<string, number> {
  const byKind: Record<string, number> = { faces: snapshot.faces.length, edges: snapshot.edges.length };
  for (const face of snapshot.faces) byKind[`faces_${face.kind}`] = (byKind[`faces_${face.kind}`] ?? 0) + 1;
  return byKind;
}

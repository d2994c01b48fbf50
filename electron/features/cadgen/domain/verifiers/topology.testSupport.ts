import type { FaceInfo, TopologySnapshot } from '../topology';
import type { Vec3 } from '../vec3';

/** Synthetic topology snapshots for verifier tests: planes and bores with adjacency, no kernel. */
let nextToken = 0;
const token = (): string => `fc_${(nextToken += 1).toString(16).padStart(20, '0')}`;

export function plane(index: number, z: number, normal: Vec3, adjacent: number[], half = 50): FaceInfo {
  return { token: token(), index, kind: 'plane', area_mm2: 1, centroid: [0, 0, z], bbox: { min: [-half, -half, z], max: [half, half, z] }, normal, adjacent_faces: adjacent };
}
export function bore(index: number, centre: [number, number], radius: number, z0: number, z1: number, adjacent: number[]): FaceInfo {
  return {
    token: token(),
    index,
    kind: 'cylinder',
    area_mm2: 1,
    centroid: [centre[0], centre[1], (z0 + z1) / 2],
    bbox: { min: [centre[0] - radius, centre[1] - radius, z0], max: [centre[0] + radius, centre[1] + radius, z1] },
    axis: { origin: [centre[0], centre[1], 0], direction: [0, 0, 1] },
    radius_mm: radius,
    concave: true,
    adjacent_faces: adjacent,
  };
}
export function snapshot(faces: FaceInfo[], solids = 1): TopologySnapshot {
  return { snapshot_id: '0'.repeat(64), faces, edges: [], features: [], measurements: { solid_count: solids, volume_mm3: 1000, area_mm2: 1, bbox: { min: [-50, -50, 0], max: [50, 50, 10] } } };
}

/** A 10 mm plate: top 0, bottom 1, bore faces from 2 (radius 5 unless given); `blind` closes the first bore with a cap at z = 4. */
export function plateWithBores(centres: [number, number][], blind = false, radius = 5): TopologySnapshot {
  const faces: FaceInfo[] = [plane(0, 10, [0, 0, 1], []), plane(1, 0, [0, 0, -1], [])];
  for (const [i, c] of centres.entries()) {
    const index = faces.length;
    const closed = blind && i === 0;
    faces.push(bore(index, c, radius, closed ? 4 : 0, 10, closed ? [0, index + 1] : [0, 1]));
    (faces[0] as FaceInfo).adjacent_faces.push(index);
    if (closed) faces.push({ ...plane(index + 1, 4, [0, 0, 1], [index], radius), centroid: [c[0], c[1], 4], bbox: { min: [c[0] - radius, c[1] - radius, 4], max: [c[0] + radius, c[1] + radius, 4] } });
    else (faces[1] as FaceInfo).adjacent_faces.push(index);
  }
  return snapshot(faces);
}


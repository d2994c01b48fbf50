import type { Shape3D } from 'replicad';
import type { FaceMesh, ProjectionView, ProjectionViewName } from '../../ports/cadRuntime';
import type { TopologySnapshot } from '../../domain/topology';
import type { Arena } from './arena';
import type { Kernel } from './kernel';

/** STEP AP214 text of the body (mm). */
export async function exportStep(kernel: Kernel, body: Shape3D, name: string): Promise<string> {
  const blob = kernel.r.exportSTEP([{ shape: body, name }], { unit: 'MM', modelUnit: 'MM' });
  return blob.text();
}

/**
 * Triangulates the body and splits the triangles per B-rep face; each mesh carries the face's
 * token so a viewer can highlight a face the author refers to. Deflection scales with part size.
 */
export function exportFaceMeshes(body: Shape3D, snapshot: TopologySnapshot, faceHashes: number[]): FaceMesh[] {
  const box = snapshot.measurements.bbox;
  const diagonal = Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  const mesh = body.mesh({ tolerance: Math.max(0.01, diagonal / 2000), angularTolerance: 0.2 });
  const indexByHash = new Map<number, number>();
  faceHashes.forEach((hash, i) => indexByHash.set(hash, i));
  return mesh.faceGroups.map((group, groupIndex) => {
    const faceIndex = indexByHash.get(group.faceId) ?? groupIndex;
    const remap = new Map<number, number>();
    const positions: number[] = [];
    const normals: number[] = [];
    const indices: number[] = [];
    for (let t = group.start; t < group.start + group.count; t += 1) {
      const vertex = mesh.triangles[t] as number;
      let local = remap.get(vertex);
      if (local === undefined) {
        local = remap.size;
        remap.set(vertex, local);
        positions.push(mesh.vertices[3 * vertex] as number, mesh.vertices[3 * vertex + 1] as number, mesh.vertices[3 * vertex + 2] as number);
        normals.push(mesh.normals[3 * vertex] as number, mesh.normals[3 * vertex + 1] as number, mesh.normals[3 * vertex + 2] as number);
      }
      indices.push(local);
    }
    return { face_index: faceIndex, token: snapshot.faces[faceIndex]?.token ?? '', positions, normals, indices };
  });
}

const VIEWS: ProjectionViewName[] = ['front', 'top', 'right', 'iso'];

/** Hidden-line-removed projections (OpenCascade HLR through replicad's drawProjection). */
export function exportProjections(kernel: Kernel, arena: Arena, body: Shape3D, snapshot: TopologySnapshot): ProjectionView[] {
  const box = snapshot.measurements.bbox;
  const centre: [number, number, number] = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
  return VIEWS.map((view) => {
    const camera = view === 'iso' ? arena.track(new kernel.r.ProjectionCamera([centre[0] + 1, centre[1] - 1, centre[2] + 1], [-1, 1, -1])) : view;
    const { visible, hidden } = kernel.r.drawProjection(body, camera);
    arena.track(visible);
    arena.track(hidden);
    const flatten = (paths: string[] | string[][]): string[] => (paths as (string | string[])[]).flat();
    return { view, visible: flatten(visible.toSVGPaths()), hidden: flatten(hidden.toSVGPaths()), view_box: visible.toSVGViewBox(2) };
  });
}

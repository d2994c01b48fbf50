import type { Shape3D } from 'replicad';
import { VIEW_CAMERAS, viewsFor } from '../../domain/drawingViews';
import type { ProjectionMethod } from '../../domain/drawingViews';
import type { EdgeLine, FaceMesh, ProjectionView } from '../../ports/cadRuntime';
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
  const mesh = body.mesh({ tolerance: meshTolerance(snapshot), angularTolerance: 0.2 });
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

const PERIODIC_KINDS = new Set(['cylinder', 'cone', 'sphere', 'torus']);

/** Meshing tolerance that scales with part size (the same for faces and edges so they meet). */
function meshTolerance(snapshot: TopologySnapshot): number {
  const box = snapshot.measurements.bbox;
  return Math.max(0.01, Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) / 2000);
}

/**
 * Line segments of every model edge for the viewer. A seam (an edge with the same periodic face on
 * both sides) is where the kernel closes a cylinder or cone, not an edge of the part: it is left out.
 */
export function exportEdgeLines(body: Shape3D, snapshot: TopologySnapshot, edgeHashes: number[]): EdgeLine[] {
  const { lines, edgeGroups } = body.meshEdges({ tolerance: meshTolerance(snapshot), angularTolerance: 0.2 });
  const indexByHash = new Map<number, number>();
  edgeHashes.forEach((hash, i) => indexByHash.set(hash, i));
  const out: EdgeLine[] = [];
  for (const group of edgeGroups) {
    const index = indexByHash.get(group.edgeId);
    const info = index === undefined ? undefined : snapshot.edges[index];
    if (!info) continue;
    const faces = info.adjacent_faces;
    if (faces.length === 1 && PERIODIC_KINDS.has(snapshot.faces[faces[0] as number]?.kind ?? '')) continue;
    // meshEdges already lists segments as point pairs, the layout of a glTF LINES primitive.
    out.push({ edge_index: index as number, token: info.token, positions: Array.from(lines.slice(3 * group.start, 3 * (group.start + group.count))) });
  }
  return out;
}

/**
 * Hidden-line-removed projections (OpenCascade HLR through replicad's drawProjection) with the
 * cameras of VIEW_CAMERAS: each view looks at the side it is named after. The camera sits at the
 * model origin so drawing coordinates are model coordinates along the view axes.
 */
export function exportProjections(kernel: Kernel, arena: Arena, body: Shape3D, method: ProjectionMethod): ProjectionView[] {
  // Marks edges between smoothly joined faces — including a cylinder's seam, which joins the face
  // to itself — so HLR files them as smooth lines instead of drawing the seam as a model edge.
  kernel.oc.BRepLib.EncodeRegularity(body.wrapped, 1e-10);
  return viewsFor(method).map((view) => {
    const camera = VIEW_CAMERAS[view];
    const projector = arena.track(new kernel.r.ProjectionCamera([0, 0, 0], [...camera.toward_viewer], [...camera.x_axis]));
    const { visible, hidden } = kernel.r.drawProjection(body, projector);
    arena.track(visible);
    arena.track(hidden);
    const flatten = (paths: string[] | string[][]): string[] => (paths as (string | string[])[]).flat();
    return { view, visible: flatten(visible.toSVGPaths()), hidden: flatten(hidden.toSVGPaths()), view_box: visible.toSVGViewBox(2) };
  });
}

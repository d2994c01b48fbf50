import { Document, NodeIO } from '@gltf-transform/core';
import type { TopologySnapshot } from '../../domain/topology';
import type { FaceInfo } from '../../domain/topology';
import type { EdgeLine, FaceMesh } from '../../ports/cadRuntime';

/** What a viewer shows for a hovered face: its kind and measurements (mm, unit vectors). */
function faceExtras(face: FaceMesh, info: FaceInfo | undefined): Record<string, unknown> {
  const extras: Record<string, unknown> = { face_token: face.token, face_index: face.face_index, kind: info?.kind ?? 'other' };
  if (!info) return extras;
  extras.area_mm2 = info.area_mm2;
  if (info.normal) extras.normal = info.normal;
  if (info.axis) extras.axis_direction = info.axis.direction;
  if (info.radius_mm !== undefined) extras.diameter_mm = 2 * info.radius_mm;
  if (info.concave !== undefined) extras.concave = info.concave;
  return extras;
}

/**
 * GLB with one mesh node per B-rep face. Each node is named by the face token and carries
 * extras {face_token, face_index, kind, area_mm2, normal | axis_direction, diameter_mm, concave};
 * the scene extras hold the token → node map, so a viewer can highlight a face by token and
 * describe it on hover. The model edges (seams excluded) are one LINES node named "model_edges".
 * Units: metres as glTF requires, via a root scale of 0.001 on mm coordinates.
 */
export async function encodeGlb(meshes: FaceMesh[], snapshot: TopologySnapshot, name: string, edges: EdgeLine[]): Promise<Uint8Array> {
  const doc = new Document();
  doc.createBuffer();
  const material = doc.createMaterial('part').setBaseColorFactor([0.72, 0.74, 0.78, 1]).setMetallicFactor(0.1).setRoughnessFactor(0.6);
  const root = doc.createNode(name).setScale([0.001, 0.001, 0.001]);
  const faceNodes: Record<string, number> = {};
  for (const [i, face] of meshes.entries()) {
    if (face.indices.length === 0) continue;
    const info = snapshot.faces[face.face_index];
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(face.positions)))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normalized(face.normals)))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(face.indices)))
      .setMaterial(material);
    const mesh = doc.createMesh(face.token).addPrimitive(primitive);
    const node = doc.createNode(face.token).setMesh(mesh).setExtras(faceExtras(face, info));
    root.addChild(node);
    faceNodes[face.token] = i;
  }
  const segments = edges.flatMap((e) => e.positions);
  if (segments.length > 0) {
    const lineMaterial = doc.createMaterial('edges').setBaseColorFactor([0.11, 0.14, 0.19, 1]);
    const lines = doc.createPrimitive().setMode(1).setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(segments))).setMaterial(lineMaterial);
    root.addChild(doc.createNode('model_edges').setMesh(doc.createMesh('model_edges').addPrimitive(lines)).setExtras({ role: 'model_edges', edge_count: edges.length }));
  }
  doc.createScene(name).addChild(root).setExtras({ cdsl_snapshot_id: snapshot.snapshot_id, face_nodes: faceNodes });
  return new NodeIO().writeBinary(doc);
}

/** glTF requires unit-length normals; kernel normals can be slightly off or zero at poles. */
function normalized(normals: number[]): Float32Array {
  const out = new Float32Array(normals.length);
  for (let i = 0; i < normals.length; i += 3) {
    const x = normals[i] as number;
    const y = normals[i + 1] as number;
    const z = normals[i + 2] as number;
    const n = Math.hypot(x, y, z);
    if (n < 1e-12) out.set([0, 0, 1], i);
    else out.set([x / n, y / n, z / n], i);
  }
  return out;
}

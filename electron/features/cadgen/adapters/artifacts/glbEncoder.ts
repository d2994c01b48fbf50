import { Document, NodeIO } from '@gltf-transform/core';
import type { TopologySnapshot } from '../../domain/topology';
import type { FaceMesh } from '../../ports/cadRuntime';

/**
 * GLB with one mesh node per B-rep face. Each node is named by the face token and carries
 * extras {face_token, face_index, kind}; the scene extras hold the token → node map, so a viewer
 * can highlight a face by token (and show its kind on hover). Units: metres as glTF requires,
 * via a root scale of 0.001 on mm coordinates.
 */
export async function encodeGlb(meshes: FaceMesh[], snapshot: TopologySnapshot, name: string): Promise<Uint8Array> {
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
    const node = doc.createNode(face.token).setMesh(mesh).setExtras({ face_token: face.token, face_index: face.face_index, kind: info?.kind ?? 'other' });
    root.addChild(node);
    faceNodes[face.token] = i;
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

import { parseEntity } from './entityParser';
import { placeOcsGeometry, readOcsPlacement } from './ocsPlacement';
import { polyfaceEdges, polygonMeshEdges, type MeshVertexRecord } from './meshes';
import type { DxfBlock, DxfDocument, DxfEntity, PolyVertex } from './model';
import type { DxfProblem, TagStream } from './tags';
import { decodeDxfEscapes, type MbcsDecoder } from './textEscapes';
import { nextZero, TagView } from './tagView';

/** Entities that belong to the entity before them (INSERT attributes, POLYLINE vertices). */
const CHILD_TYPES = new Set(['ATTRIB', 'VERTEX', 'SEQEND']);
/** VERTEX flag of a polyface face record: it carries vertex indices, not a position. */
const FACE_RECORD = 128;

/** Reads consecutive entities in [start, end), attaching ATTRIB/VERTEX children to their parent. */
export function readEntityList(tags: TagStream, start: number, end: number, decode?: MbcsDecoder): DxfEntity[] {
  const entities: DxfEntity[] = [];
  let i = tags.codes[start] === 0 ? start : nextZero(tags, start, end);
  while (i < end) {
    const next = nextZero(tags, i + 1, end);
    const entity = parseEntity(tags, i, next, decode);
    // OCS points become WCS plan points here, once the POLYLINE has its vertices
    const placement = readOcsPlacement(entity.type, new TagView(tags, i, next));
    i = next;
    if (CHILD_TYPES.has(entity.type)) continue; // orphan ATTRIB/VERTEX/SEQEND: belongs to nothing
    if (entity.type === 'INSERT' || entity.type === 'POLYLINE') {
      const children: DxfEntity[] = [];
      while (i < end && CHILD_TYPES.has((tags.values[i] as string).trim())) {
        const childEnd = nextZero(tags, i + 1, end);
        const child = parseEntity(tags, i, childEnd, decode);
        i = childEnd;
        if (child.type === 'SEQEND') break;
        children.push(child);
      }
      entity.tagEnd = i;
      attachChildren(entity, children);
    }
    if (placement) entity.geometry = placeOcsGeometry(entity.geometry, placement);
    entities.push(entity);
  }
  return entities;
}

function attachChildren(parent: DxfEntity, children: DxfEntity[]): void {
  const g = parent.geometry;
  if (g.kind === 'insert') g.attribs = children.filter((c) => c.type === 'ATTRIB');
  else if (g.kind === 'mesh') {
    const records: MeshVertexRecord[] = [];
    for (const child of children) if (child.geometry.kind === 'vertex') records.push({ flags: child.geometry.flags, at: child.geometry.at, indices: child.geometry.indices ?? [] });
    g.edges = g.polyface ? polyfaceEdges(records) : polygonMeshEdges(records, g.m, g.n, g.smoothM, g.smoothN, g.closedM, g.closedN);
  } else if (g.kind === 'polyline') {
    const vertices: PolyVertex[] = [];
    for (const child of children) {
      const vg = child.geometry;
      if (vg.kind === 'vertex' && (vg.flags & FACE_RECORD) === 0) vertices.push({ x: vg.at.x, y: vg.at.y, bulge: vg.bulge });
    }
    g.vertices = vertices;
  }
}

/** Reads BLOCK ... ENDBLK definitions. A block without a name gets a generated one and a problem. */
export function readBlocks(tags: TagStream, start: number, end: number, doc: DxfDocument, problems: DxfProblem[], decode?: MbcsDecoder): void {
  let i = start;
  while (i < end) {
    if (tags.codes[i] !== 0 || (tags.values[i] as string).trim() !== 'BLOCK') {
      i++;
      continue;
    }
    const headEnd = nextZero(tags, i + 1, end);
    const head = new TagView(tags, i, headEnd);
    let bodyEnd = headEnd;
    while (bodyEnd < end && !['ENDBLK', 'BLOCK'].includes((tags.values[bodyEnd] as string).trim())) bodyEnd = nextZero(tags, bodyEnd + 1, end);
    const handle = head.str(5).trim();
    let name = decodeDxfEscapes(head.str(2) || head.str(3), decode).trim();
    if (!name) {
      name = `*UNNAMED_${handle || i}`;
      problems.push({ kind: 'block_without_name', message: `block at tag ${i} (handle ${handle || 'none'}) has no name; kept as ${name}` });
    }
    const block: DxfBlock = {
      name,
      handle,
      recordHandle: head.str(330).trim(),
      basePoint: head.point(10),
      flags: head.num(70),
      entities: readEntityList(tags, headEnd, bodyEnd, decode),
    };
    if (doc.blocks.has(name.toUpperCase())) problems.push({ kind: 'duplicate_block', message: `block ${name} defined twice; the first definition is used` });
    else doc.blocks.set(name.toUpperCase(), block);
    i = bodyEnd < end && (tags.values[bodyEnd] as string).trim() === 'ENDBLK' ? nextZero(tags, bodyEnd + 1, end) : bodyEnd;
  }
}

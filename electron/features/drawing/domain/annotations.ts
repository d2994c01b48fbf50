import type { Box, DxfDocument, Vec2 } from './model';

/** The layer every AI annotation is written on. */
export const REVIEW_LAYER = 'AI_REVIEW';
/** ACI red: review marks stand out against black/white linework. */
const REVIEW_COLOR = 1;

export type Tag = [number, string];

/** Allocates fresh hex handles above every handle in the file and $HANDSEED. */
export class HandleAllocator {
  private next: bigint;
  constructor(doc: DxfDocument) {
    let max = 0n;
    const { codes, values } = doc.tags;
    for (let i = 0; i < codes.length; i++) {
      if (codes[i] !== 5 && codes[i] !== 105) continue;
      const v = (values[i] as string).trim();
      if (/^[0-9A-Fa-f]{1,16}$/.test(v)) {
        const h = BigInt(`0x${v}`);
        if (h > max) max = h;
      }
    }
    const seed = doc.header.get('$HANDSEED')?.values[0]?.value.trim() ?? '';
    const seedValue = /^[0-9A-Fa-f]{1,16}$/.test(seed) ? BigInt(`0x${seed}`) : 0n;
    this.next = seedValue > max ? seedValue : max + 1n;
  }
  take(): string {
    const h = this.next;
    this.next += 1n;
    return h.toString(16).toUpperCase();
  }
  /** The value $HANDSEED must have after the allocated handles. */
  seed(): string {
    return this.next.toString(16).toUpperCase();
  }
}

/** Writer capabilities of the file's version. */
export interface Dialect {
  /** R13+ (AC1012): subclass markers, owners, LEADER. */
  subclasses: boolean;
  /** R14+ (AC1014): LWPOLYLINE. */
  lwpolyline: boolean;
  handles: boolean;
  modelSpaceOwner: string | undefined;
  textStyle: string | undefined;
  dimStyle: string | undefined;
}

export function dialectOf(doc: DxfDocument): Dialect {
  const v = doc.version;
  const known = /^AC\d{4}$/.test(v);
  const modelRecord = [...doc.blockRecords].find(([, name]) => name.toUpperCase() === '*MODEL_SPACE')?.[0];
  const style = [...doc.styles.values()].find((s) => s.name.toUpperCase() === 'STANDARD') ?? [...doc.styles.values()][0];
  const dim = doc.dimStyles.find((d) => d.toUpperCase() === 'STANDARD') ?? doc.dimStyles[0];
  return {
    subclasses: known && v >= 'AC1012',
    lwpolyline: known && v >= 'AC1014',
    handles: doc.header.has('$HANDSEED') || (known && v >= 'AC1012'),
    modelSpaceOwner: modelRecord,
    textStyle: style?.name,
    dimStyle: dim,
  };
}

/**
 * Where an annotation entity goes: its owner (the space's BLOCK_RECORD handle) and whether it is
 * in paper space (group 67 = 1). Model space is the default.
 */
export interface EntityTarget {
  owner: string | undefined;
  paperSpace: boolean;
}

const modelTarget = (d: Dialect): EntityTarget => ({ owner: d.modelSpaceOwner, paperSpace: false });

function head(type: string, subclass: string | undefined, d: Dialect, handles: HandleAllocator, target: EntityTarget = modelTarget(d)): { tags: Tag[]; handle: string } {
  const handle = d.handles ? handles.take() : '';
  const tags: Tag[] = [[0, type]];
  if (handle) tags.push([5, handle]);
  if (d.subclasses) {
    if (target.owner) tags.push([330, target.owner]);
    tags.push([100, 'AcDbEntity']);
  }
  if (target.paperSpace) tags.push([67, '1']);
  tags.push([8, REVIEW_LAYER]);
  if (d.subclasses && subclass) tags.push([100, subclass]);
  return { tags, handle };
}

const num = (v: number): string => String(Math.round(v * 1e9) / 1e9);

export function textTags(d: Dialect, handles: HandleAllocator, at: Vec2, height: number, text: string, rotation = 0, target: EntityTarget = modelTarget(d)): Tag[] {
  const { tags } = head('TEXT', 'AcDbText', d, handles, target);
  tags.push([10, num(at.x)], [20, num(at.y)], [30, '0'], [40, num(height)], [1, text.replace(/[\r\n]+/g, ' ')]);
  if (rotation) tags.push([50, num(rotation)]);
  if (d.textStyle) tags.push([7, d.textStyle]);
  if (d.subclasses) tags.push([100, 'AcDbText']);
  return tags;
}

/**
 * A leader (LEADER entity on R13+, lines and a filled arrowhead on R12) plus its text; `xdata`
 * (e.g. the review id) is appended to the text entity.
 */
export function leaderTags(d: Dialect, handles: HandleAllocator, points: Vec2[], text: string, height: number, xdata: Tag[] = [], target: EntityTarget = modelTarget(d)): Tag[] {
  const tags: Tag[] = [];
  if (d.subclasses && d.dimStyle) {
    const leader = head('LEADER', 'AcDbLeader', d, handles, target).tags;
    leader.push([3, d.dimStyle], [71, '1'], [72, '0'], [73, '3'], [74, '0'], [75, '0'], [40, num(height)], [41, '0'], [76, String(points.length)]);
    for (const p of points) leader.push([10, num(p.x)], [20, num(p.y)], [30, '0']);
    tags.push(...leader);
  } else {
    for (let i = 0; i + 1 < points.length; i++) {
      const line = head('LINE', 'AcDbLine', d, handles, target).tags;
      const a = points[i] as Vec2;
      const b = points[i + 1] as Vec2;
      line.push([10, num(a.x)], [20, num(a.y)], [30, '0'], [11, num(b.x)], [21, num(b.y)], [31, '0']);
      tags.push(...line);
    }
    tags.push(...arrowheadTags(d, handles, points[0] as Vec2, points[1] as Vec2, height, target));
  }
  const last = points[points.length - 1] as Vec2;
  const before = points[points.length - 2] as Vec2;
  const dir = last.x >= before.x ? 1 : -1;
  tags.push(...textTags(d, handles, { x: last.x + dir * height * 0.5, y: last.y + height * 0.2 }, height, text, 0, target), ...xdata);
  return tags;
}

function arrowheadTags(d: Dialect, handles: HandleAllocator, tip: Vec2, toward: Vec2, size: number, target: EntityTarget): Tag[] {
  const len = Math.hypot(toward.x - tip.x, toward.y - tip.y) || 1;
  const ux = (toward.x - tip.x) / len;
  const uy = (toward.y - tip.y) / len;
  const base = { x: tip.x + ux * size, y: tip.y + uy * size };
  const half = size / 6;
  const left = { x: base.x - uy * half, y: base.y + ux * half };
  const right = { x: base.x + uy * half, y: base.y - ux * half };
  const solid = head('SOLID', 'AcDbTrace', d, handles, target).tags;
  solid.push([10, num(tip.x)], [20, num(tip.y)], [30, '0'], [11, num(left.x)], [21, num(left.y)], [31, '0'], [12, num(right.x)], [22, num(right.y)], [32, '0'], [13, num(right.x)], [23, num(right.y)], [33, '0']);
  return solid;
}

/** Outward bulge of each cloud arc (tan(θ/4) ≈ 0.5 → about 106° arcs). */
const CLOUD_BULGE = 0.5;

/** A closed polyline of outward arcs around `box` (LWPOLYLINE, or POLYLINE/VERTEX before R14). */
export function revisionCloudTags(d: Dialect, handles: HandleAllocator, box: Box, arcLength?: number, target: EntityTarget = modelTarget(d)): Tag[] {
  const w = box.maxX - box.minX;
  const h = box.maxY - box.minY;
  const step = arcLength ?? Math.max(w, h) / 10;
  const corners = [
    { x: box.minX, y: box.minY },
    { x: box.maxX, y: box.minY },
    { x: box.maxX, y: box.maxY },
    { x: box.minX, y: box.maxY },
  ];
  const points: Vec2[] = [];
  for (let side = 0; side < 4; side++) {
    const a = corners[side] as Vec2;
    const b = corners[(side + 1) % 4] as Vec2;
    const n = Math.max(1, Math.round(Math.hypot(b.x - a.x, b.y - a.y) / step));
    for (let i = 0; i < n; i++) points.push({ x: a.x + ((b.x - a.x) * i) / n, y: a.y + ((b.y - a.y) * i) / n });
  }
  if (d.lwpolyline) {
    const { tags } = head('LWPOLYLINE', 'AcDbPolyline', d, handles, target);
    tags.push([90, String(points.length)], [70, '1'], [43, '0']);
    for (const p of points) tags.push([10, num(p.x)], [20, num(p.y)], [42, String(CLOUD_BULGE)]);
    return tags;
  }
  const poly = head('POLYLINE', 'AcDb2dPolyline', d, handles, target);
  const tags = poly.tags;
  tags.push([66, '1'], [10, '0'], [20, '0'], [30, '0'], [70, '1']);
  for (const p of points) {
    const vertex = head('VERTEX', undefined, d, handles, { owner: poly.handle || undefined, paperSpace: target.paperSpace }).tags;
    if (d.subclasses) vertex.push([100, 'AcDbVertex'], [100, 'AcDb2dVertex']);
    vertex.push([10, num(p.x)], [20, num(p.y)], [30, '0'], [42, String(CLOUD_BULGE)]);
    tags.push(...vertex);
  }
  tags.push(...head('SEQEND', undefined, d, handles, { owner: poly.handle || undefined, paperSpace: target.paperSpace }).tags);
  return tags;
}

/** The AI_REVIEW layer table entry. */
export function reviewLayerTags(d: Dialect, handles: HandleAllocator, layerTableHandle: string | undefined, doc: DxfDocument): Tag[] {
  const tags: Tag[] = [[0, 'LAYER']];
  if (d.handles) tags.push([5, handles.take()]);
  if (d.subclasses) {
    if (layerTableHandle) tags.push([330, layerTableHandle]);
    tags.push([100, 'AcDbSymbolTableRecord'], [100, 'AcDbLayerTableRecord']);
  }
  const continuous = doc.lineTypes.find((l) => l.toUpperCase() === 'CONTINUOUS') ?? 'CONTINUOUS';
  tags.push([2, REVIEW_LAYER], [70, '0'], [62, String(REVIEW_COLOR)], [6, continuous]);
  return tags;
}

/**
 * The text style review notes are written in: GB practice for CAD lettering that shows Chinese
 * and Latin alike — gbenor.shx with the gbcbig.shx big font (AutoCAD shows "?" for Chinese in a
 * style without a big font, such as Standard on txt.shx).
 */
export const REVIEW_TEXT_STYLE = { name: 'CADSIGHT_CJK', font: 'gbenor.shx', bigFont: 'gbcbig.shx' } as const;

/** The STYLE table entry of REVIEW_TEXT_STYLE. */
export function reviewStyleTags(d: Dialect, handles: HandleAllocator, styleTableHandle: string | undefined): Tag[] {
  const tags: Tag[] = [[0, 'STYLE']];
  if (d.handles) tags.push([5, handles.take()]);
  if (d.subclasses) {
    if (styleTableHandle) tags.push([330, styleTableHandle]);
    tags.push([100, 'AcDbSymbolTableRecord'], [100, 'AcDbTextStyleTableRecord']);
  }
  tags.push([2, REVIEW_TEXT_STYLE.name], [70, '0'], [40, '0'], [41, '1'], [50, '0'], [71, '0'], [42, '2.5'], [3, REVIEW_TEXT_STYLE.font], [4, REVIEW_TEXT_STYLE.bigFont]);
  return tags;
}

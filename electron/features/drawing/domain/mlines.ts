import type { DxfEntity, DxfGeometry, MlineElement, MlineStyle, MlineVertex, Vec2 } from './model';
import type { TagStream } from './tags';
import { nextZero, numberAt, TagView } from './tagView';

export type { MlineElement, MlineStyle, MlineVertex };

export type MlineGeometry = Extract<DxfGeometry, { kind: 'mline' }>;

/** AutoCAD's STANDARD style when the file has none: two BYLAYER lines at ±0.5. */
const STANDARD: MlineStyle = { handle: '', name: 'STANDARD', flags: 0, elements: [{ offset: 0.5, color: 256, lineType: 'BYLAYER' }, { offset: -0.5, color: 256, lineType: 'BYLAYER' }] };
/** Most vertices and elements read from one MLINE (counts come from the file). */
const MAX_VERTICES = 100_000;
const MAX_ELEMENTS = 16;

/** Reads an MLINE: style (340 handle, 2 name), flags (71: 2 closed, 4/8 suppress start/end caps), vertices with their element parameters. */
export function readMline(v: TagView): MlineGeometry {
  const tags = v.tags;
  const g: MlineGeometry = { kind: 'mline', styleHandle: v.str(340).trim().toUpperCase(), styleName: v.str(2).trim().toUpperCase(), flags: v.num(71), vertices: [] };
  const count = Math.min(MAX_VERTICES, v.num(72));
  let i = v.indexOf(11);
  const take = (code: number): number | undefined => (i >= 0 && i < v.end && tags.codes[i] === code ? numberAt(tags, i++) : undefined);
  const point = (code: number): Vec2 | undefined => {
    const x = take(code);
    const y = take(code + 10);
    take(code + 20);
    return x === undefined || y === undefined ? undefined : { x, y };
  };
  for (let n = 0; n < count && i >= 0 && i < v.end; n++) {
    const at = point(11);
    point(12);
    const miter = point(13);
    if (!at || !miter) break;
    const params: number[][] = [];
    while (i < v.end && tags.codes[i] === 74 && params.length < MAX_ELEMENTS) {
      const paramCount = take(74) ?? 0;
      const own: number[] = [];
      for (let p = 0; p < paramCount; p++) {
        const value = take(41);
        if (value === undefined) break;
        own.push(value);
      }
      const fillCount = take(75) ?? 0;
      for (let f = 0; f < fillCount; f++) take(42);
      params.push(own);
    }
    g.vertices.push({ at, miter, params });
  }
  return g;
}

/** Reads the MLINESTYLE objects of an OBJECTS section [start, end). */
export function readMlineStyles(tags: TagStream, start: number, end: number): MlineStyle[] {
  const styles: MlineStyle[] = [];
  for (let i = start; i < end; i = nextZero(tags, i + 1, end)) {
    if (tags.codes[i] !== 0 || (tags.values[i] as string).trim() !== 'MLINESTYLE') continue;
    const v = new TagView(tags, i, nextZero(tags, i + 1, end));
    const style: MlineStyle = { handle: v.str(5).trim().toUpperCase(), name: v.str(2).trim().toUpperCase(), flags: v.num(70), elements: [] };
    for (let j = v.indexOf(71); j >= 0 && j < v.end && style.elements.length < MAX_ELEMENTS; j++) {
      if (tags.codes[j] !== 49) continue;
      const element: MlineElement = { offset: numberAt(tags, j), color: 256, lineType: 'BYLAYER' };
      if (tags.codes[j + 1] === 62) element.color = numberAt(tags, j + 1);
      const typeAt = tags.codes[j + 1] === 6 ? j + 1 : tags.codes[j + 2] === 6 ? j + 2 : -1;
      if (typeAt >= 0) element.lineType = (tags.values[typeAt] as string).trim();
      style.elements.push(element);
    }
    styles.push(style);
  }
  return styles;
}

/**
 * The lines of an MLINE as virtual entities on its layer: one polyline per style element
 * (vertex + miter × the element's first parameter, closed when the MLINE is), in the element's
 * colour and linetype, plus the square caps the style asks for (70 bits 16/256) unless the MLINE
 * suppresses them. Breaks in elements (further parameters) are not drawn as gaps.
 */
export function mlineEntities(parent: DxfEntity, g: MlineGeometry, styles: MlineStyle[] | undefined): DxfEntity[] {
  const style = styles?.find((s) => s.handle === g.styleHandle) ?? styles?.find((s) => s.name === g.styleName) ?? STANDARD;
  const elementCount = Math.max(0, ...g.vertices.map((vx) => vx.params.length));
  if (elementCount === 0 || g.vertices.length < 2) return [];
  const closed = (g.flags & 2) !== 0;
  const lines: Vec2[][] = [];
  for (let e = 0; e < elementCount; e++) lines.push(g.vertices.map((vx) => ({ x: vx.at.x + vx.miter.x * (vx.params[e]?.[0] ?? 0), y: vx.at.y + vx.miter.y * (vx.params[e]?.[0] ?? 0) })));
  const entity = (points: Vec2[], color: number, lineType: string, close: boolean): DxfEntity => ({
    type: 'LWPOLYLINE',
    handle: parent.handle,
    layer: parent.layer,
    color,
    lineType,
    paperSpace: parent.paperSpace,
    tagStart: parent.tagStart,
    tagEnd: parent.tagEnd,
    geometry: { kind: 'polyline', vertices: points.map((p) => ({ x: p.x, y: p.y, bulge: 0 })), closed: close },
  });
  const out = lines.map((points, e) => entity(points, style.elements[e]?.color ?? 256, style.elements[e]?.lineType ?? 'BYLAYER', closed));
  if (!closed && lines.length > 1) {
    const across = (index: number): Vec2[] => lines.map((l) => l[index] as Vec2);
    if ((style.flags & 16) !== 0 && (g.flags & 4) === 0) out.push(entity(across(0), 0, 'BYBLOCK', false));
    if ((style.flags & 256) !== 0 && (g.flags & 8) === 0) out.push(entity(across(g.vertices.length - 1), 0, 'BYBLOCK', false));
  }
  return out;
}

import { readHatchLoops } from './hatchParser';
import { readHatchGradient, readHatchPattern } from './hatchPatterns';
import { readMline } from './mlines';
import { proxyGraphicsBytes } from './proxyGraphics';
import type { DxfEntity, DxfGeometry, TextGeometry } from './model';
import type { TagStream } from './tags';
import { decodeDxfEscapes, mtextToPlain, parseMtext, plainText, type MbcsDecoder } from './textEscapes';
import { mtextFrame, textGenerationFrame } from './textFrame';
import { TagView } from './tagView';

/** Largest proxy graphics stream read from one entity (a TArch wall is under 2 KB). */
const MAX_PROXY_GRAPHICS_BYTES = 4 * 1024 * 1024;

/** Reads the common fields and the geometry of the entity whose tags are [start, end). */
export function parseEntity(tags: TagStream, start: number, end: number, decodeMbcs?: MbcsDecoder): DxfEntity {
  const view = new TagView(tags, start, end);
  const type = (tags.values[start] as string).trim();
  const trueColor = view.indexOf(420);
  const entity: DxfEntity = {
    type,
    handle: view.str(5).trim(),
    layer: decodeDxfEscapes(view.str(8, '0'), decodeMbcs),
    color: view.num(62, 256),
    paperSpace: view.num(67) === 1,
    tagStart: start,
    tagEnd: end,
    geometry: parseGeometry(type, view, decodeMbcs),
  };
  if (trueColor >= 0) entity.trueColor = view.num(420);
  if (view.indexOf(370) >= 0) entity.lineweight = view.num(370, -1);
  if (view.indexOf(6) >= 0) entity.lineType = view.str(6).trim();
  if (view.indexOf(48) >= 0) entity.lineTypeScale = view.num(48, 1);
  return entity;
}

function parseGeometry(type: string, v: TagView, decodeMbcs?: MbcsDecoder): DxfGeometry {
  switch (type) {
    case 'LINE':
      return { kind: 'line', a: v.point(10), b: v.point(11), z1: v.num(30), z2: v.num(31) };
    case 'POINT':
      return { kind: 'point', at: v.point(10) };
    case 'VERTEX': {
      const flags = v.num(70);
      const vertex: DxfGeometry = { kind: 'vertex', at: v.point(10), bulge: v.num(42), flags };
      if ((flags & 128) !== 0 && (flags & 64) === 0) vertex.indices = [71, 72, 73, 74].map((code) => Math.trunc(v.num(code)));
      return vertex;
    }
    case 'CIRCLE':
      return { kind: 'circle', center: v.point(10), radius: v.num(40) };
    case 'ARC':
      return { kind: 'arc', center: v.point(10), radius: v.num(40), startAngle: v.num(50), endAngle: v.num(51, 360) };
    case 'ELLIPSE':
      return { kind: 'ellipse', center: v.point(10), majorAxis: v.point(11, { x: 1, y: 0 }), ratio: v.num(40, 1), startParam: v.num(41), endParam: v.num(42, 2 * Math.PI) };
    case 'LWPOLYLINE':
      return withWidth({ kind: 'polyline', vertices: lwVertices(v), closed: (v.num(70) & 1) === 1 }, v.num(43));
    case 'POLYLINE':
      if ((v.num(70) & 80) !== 0) {
        const flags = v.num(70);
        return { kind: 'mesh', polyface: (flags & 64) !== 0, m: v.num(71), n: v.num(72), smoothM: v.num(73), smoothN: v.num(74), closedM: (flags & 1) !== 0, closedN: (flags & 32) !== 0, edges: [] };
      }
      return withWidth({ kind: 'polyline', vertices: [], closed: (v.num(70) & 1) === 1 }, v.num(40) === v.num(41) ? v.num(40) : 0);
    case 'SPLINE':
      return { kind: 'spline', degree: v.num(71, 3), controlPoints: v.points(10), knots: v.numbers(40), weights: v.numbers(41), fitPoints: v.points(11), closed: (v.num(70) & 1) === 1 };
    case 'TEXT':
    case 'ATTRIB':
    case 'ATTDEF':
      return textGeometry(v, decodeMbcs);
    case 'MTEXT':
      return mtextGeometry(v, decodeMbcs);
    case 'ACAD_TABLE': // drawn by its anonymous *T block (grid lines and cell texts); its other codes are table data
      return { kind: 'insert', name: plainText(v.str(2), decodeMbcs), at: v.point(10), scaleX: 1, scaleY: 1, rotation: 0, columns: 1, rows: 1, columnSpacing: 0, rowSpacing: 0, attribs: [] };
    case 'INSERT':
      return {
        kind: 'insert',
        name: plainText(v.str(2), decodeMbcs),
        at: v.point(10),
        scaleX: v.num(41, 1),
        scaleY: v.num(42, 1),
        rotation: v.num(50),
        columns: Math.max(1, v.num(70, 1)),
        rows: Math.max(1, v.num(71, 1)),
        columnSpacing: v.num(44),
        rowSpacing: v.num(45),
        attribs: [],
      };
    case 'DIMENSION': {
      const measurementIndex = v.indexOf(42);
      return {
        kind: 'dimension',
        blockName: plainText(v.str(2), decodeMbcs),
        dimType: v.num(70) & 7,
        measurement: measurementIndex < 0 ? null : v.num(42),
        textOverride: mtextToPlain(v.str(1), decodeMbcs),
        defPoint: v.point(10),
        textAt: v.point(11),
        points: [13, 14, 15, 16].filter((code) => v.indexOf(code) >= 0).map((code) => v.point(code)),
      };
    }
    case 'HATCH':
      return hatchGeometry(v);
    case 'LEADER':
      // 71 = arrowhead flag (absent means on, as AutoCAD writes it)
      return { kind: 'leader', vertices: v.points(10), text: '', arrow: v.num(71, 1) !== 0 };
    case 'MULTILEADER':
    case 'MLEADER':
      return multileaderGeometry(v, decodeMbcs);
    case 'SOLID':
    case 'TRACE': {
      const [p1, p2, p3, p4] = [v.point(10), v.point(11), v.point(12), v.point(13, v.point(12))];
      return { kind: 'solid', corners: [p1, p2, p4, p3] };
    }
    case '3DFACE':
      return { kind: 'solid', corners: [v.point(10), v.point(11), v.point(12), v.point(13, v.point(12))] };
    case 'VIEWPORT':
      return viewportGeometry(v);
    case 'MLINE':
      return readMline(v);
    case 'IMAGE':
    case 'WIPEOUT':
      return { kind: 'image', at: v.point(10), u: v.point(11), v: v.point(12), size: v.point(13, { x: 1, y: 1 }), boundary: v.points(14), wipeout: type === 'WIPEOUT', imageDef: v.str(340).trim(), name: '' };
    case 'XLINE':
    case 'RAY': {
      const d = v.point(11, { x: 1, y: 0 });
      const length = Math.hypot(d.x, d.y) || 1;
      return { kind: 'xline', at: v.point(10), direction: { x: d.x / length, y: d.y / length }, ray: type === 'RAY' };
    }
    default: {
      // custom objects keep a picture of themselves (proxy graphics) for programs without their application
      const graphics = proxyGraphicsBytes(v.tags.codes, v.tags.values as ArrayLike<string>, v.start, v.end, MAX_PROXY_GRAPHICS_BYTES);
      return graphics ? { kind: 'proxy', graphics } : { kind: 'other' };
    }
  }
}

function hatchGeometry(v: TagView): DxfGeometry {
  const g: Extract<DxfGeometry, { kind: 'hatch' }> = { kind: 'hatch', loops: readHatchLoops(v), solid: v.num(70) === 1 };
  const gradient = readHatchGradient(v);
  if (gradient) g.gradient = gradient;
  else if (!g.solid) g.pattern = readHatchPattern(v);
  return g;
}

function withWidth(g: Extract<DxfGeometry, { kind: 'polyline' }>, width: number): DxfGeometry {
  if (width > 0) g.width = width;
  return g;
}

function lwVertices(v: TagView): { x: number; y: number; bulge: number }[] {
  const vertices: { x: number; y: number; bulge: number }[] = [];
  const { codes, values } = v.tags;
  for (let i = v.start; i < v.end; i++) {
    const code = codes[i];
    if (code === 10) vertices.push({ x: Number.parseFloat(values[i] as string) || 0, y: codes[i + 1] === 20 ? Number.parseFloat(values[i + 1] as string) || 0 : 0, bulge: 0 });
    else if (code === 42 && vertices.length > 0) (vertices[vertices.length - 1] as { bulge: number }).bulge = Number.parseFloat(values[i] as string) || 0;
  }
  return vertices;
}

function textGeometry(v: TagView, decodeMbcs?: MbcsDecoder): TextGeometry {
  const hAlign = v.num(72);
  // ATTRIB/ATTDEF keep their vertical alignment in 74, TEXT in 73.
  const vAlign = v.num(v.str(0).trim() === 'TEXT' ? 73 : 74);
  const useAlignPoint = (hAlign !== 0 || vAlign !== 0) && v.indexOf(11) >= 0;
  const raw = v.str(1);
  // 10/11 are OCS points: a negative extrusion mirrors OCS x (see textGenerationFrame)
  const extrusionZ = v.num(230, 1);
  const anchor = useAlignPoint ? v.point(11) : v.point(10);
  const frame = textGenerationFrame(v.num(50), v.num(71), extrusionZ, v.num(41, 1));
  const geometry: TextGeometry = {
    kind: 'text',
    text: plainText(raw, decodeMbcs),
    raw,
    at: extrusionZ < 0 ? { x: -anchor.x, y: anchor.y } : anchor,
    height: v.num(40, 1),
    rotation: frame.rotation,
    hAlign: hAlign === 4 ? 1 : hAlign > 2 ? 0 : hAlign,
    vAlign: hAlign === 4 ? 2 : vAlign,
    width: 0,
    mtext: false,
    style: v.str(7, 'Standard').trim(),
  };
  const tagIndex = v.indexOf(2);
  if (tagIndex >= 0) geometry.tag = plainText(v.str(2), decodeMbcs);
  if (frame.mirrored) geometry.mirrored = true;
  if (frame.widthFactor !== 1) geometry.widthFactor = frame.widthFactor;
  const oblique = v.num(51);
  if (oblique !== 0 && Math.abs(oblique) < 85) geometry.oblique = extrusionZ < 0 ? -oblique : oblique;
  return geometry;
}

function mtextGeometry(v: TagView, decodeMbcs?: MbcsDecoder): TextGeometry {
  let raw = '';
  for (let i = v.start; i < v.end; i++) if (v.tags.codes[i] === 3) raw += v.tags.values[i];
  raw += v.str(1);
  const attachment = Math.min(9, Math.max(1, v.num(71, 1)));
  const directionIndex = v.indexOf(11);
  const direction = v.point(11, { x: 1, y: 0 });
  const content = parseMtext(raw, decodeMbcs);
  // 10 and 11 are WCS; only the rotation 50 (used when 11 is absent) is in the OCS, and with
  // neither the baseline runs along WCS x (as ezdxf reads it)
  const frame = mtextFrame(directionIndex >= 0 ? (Math.atan2(direction.y, direction.x) * 180) / Math.PI : v.num(50), directionIndex >= 0 || v.indexOf(50) < 0, v.num(230, 1));
  const geometry: TextGeometry = {
    kind: 'text',
    text: content.plain,
    raw,
    at: v.point(10),
    height: v.num(40, 1),
    rotation: frame.rotation,
    hAlign: (attachment - 1) % 3,
    vAlign: 3 - Math.floor((attachment - 1) / 3),
    width: v.num(41),
    mtext: true,
    style: v.str(7, 'Standard').trim(),
  };
  if (frame.mirrored) geometry.mirrored = true;
  if (content.lines) geometry.runs = content.lines;
  return geometry;
}

function multileaderGeometry(v: TagView, decodeMbcs?: MbcsDecoder): DxfGeometry {
  const vertices = [];
  const { codes, values } = v.tags;
  let inLeaderLine = false;
  let text = '';
  for (let i = v.start; i < v.end; i++) {
    const code = codes[i];
    const value = values[i] as string;
    if (code === 304 && value === 'LEADER_LINE{') inLeaderLine = true;
    else if (code === 305) inLeaderLine = false;
    else if (code === 304 && !inLeaderLine) text = value;
    else if (code === 10 && inLeaderLine) vertices.push({ x: Number.parseFloat(value) || 0, y: codes[i + 1] === 20 ? Number.parseFloat(values[i + 1] as string) || 0 : 0 });
  }
  return { kind: 'leader', vertices, text: mtextToPlain(text, decodeMbcs), arrow: true };
}

/** Status 68 defaults to "on" when absent (BricsCAD omits it), id 69 to a model window. */
function viewportGeometry(v: TagView): DxfGeometry {
  const flags = v.num(90);
  const nonRectangular = (flags & 0x10000) !== 0;
  const direction = { x: v.num(16), y: v.num(26), z: v.num(36, 1) };
  const handles = (code: number): string[] => {
    const out: string[] = [];
    for (let i = v.start; i < v.end; i++) if (v.tags.codes[i] === code) out.push((v.tags.values[i] as string).trim());
    return out;
  };
  const clip = v.str(340).trim();
  return {
    kind: 'viewport',
    center: v.point(10),
    width: v.num(40),
    height: v.num(41),
    viewCenter: v.point(12),
    viewHeight: v.num(45),
    id: v.num(69, 2),
    status: v.num(68, 1),
    twistDeg: v.num(51),
    target: v.point(17),
    topView: Math.abs(direction.x) < 1e-9 && Math.abs(direction.y) < 1e-9 && direction.z > 0,
    clipHandle: nonRectangular && clip !== '0' ? clip : '',
    frozenLayerHandles: handles(331),
  };
}

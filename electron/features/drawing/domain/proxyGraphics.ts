import type { Vec2 } from './model';
import { Bits, Bytes, OutOfData } from './proxyBinary';

/**
 * Reader of the proxy graphics stream that AutoCAD stores for custom objects (ACAD_PROXY_ENTITY,
 * e.g. TArch walls and windows; groups 92/160 = byte count, 310 = the bytes): a header
 * (total size, command count) then commands `[size uint32][type uint32][data]`, little endian,
 * as documented in the Open Design Specification for .dwg files ("Proxy Entity Graphics") and
 * implemented by ezdxf's `proxygraphic.py`. Attribute commands set the colour, layer, linetype
 * and fill of the shapes that follow; shapes are polylines, polygons, circles, arcs, meshes
 * (shells) and texts. A command that cannot be read is skipped; the stream never throws.
 */

/** Drawing attributes in force for a shape: ACI colour (256 BYLAYER, 0 BYBLOCK), true colour, table indices. */
export interface ProxyAttributes {
  color: number;
  trueColor?: number;
  /** Index into the LAYER table (storage order). */
  layerIndex?: number;
  /** Index into the LTYPE table (storage order). */
  lineTypeIndex?: number;
  /** 1/100 mm; absent = by layer. */
  lineweight?: number;
}

export type ProxyShape =
  | { kind: 'polyline'; points: Vec2[]; bulges?: number[]; closed: boolean; filled: boolean; attributes: ProxyAttributes }
  | { kind: 'circle'; center: Vec2; radius: number; attributes: ProxyAttributes }
  | { kind: 'arc'; center: Vec2; radius: number; startAngle: number; endAngle: number; attributes: ProxyAttributes }
  | { kind: 'text'; at: Vec2; height: number; rotation: number; text: string; attributes: ProxyAttributes };

/** Bounds of one stream: commands read, shapes and points produced. */
export interface ProxyLimits {
  maxCommands: number;
  maxShapes: number;
  maxPoints: number;
}

export const PROXY_LIMITS: ProxyLimits = { maxCommands: 100_000, maxShapes: 50_000, maxPoints: 500_000 };

/** What a stream held: its shapes, and how many commands were skipped (unknown types or unreadable data). */
export interface ProxyGraphics {
  shapes: ProxyShape[];
  skipped: number;
  /** True when a limit stopped reading before the end of the stream. */
  truncated: boolean;
}

type Matrix = readonly number[];

const finite = (...values: number[]): boolean => values.every((v) => Number.isFinite(v));

/**
 * Parses a proxy graphics stream. Coordinates are taken in the XY plane (normals other than +Z
 * are not projected, as for other entities); PUSH/POP_MATRIX transforms are applied, composed.
 */
export function parseProxyGraphics(data: Uint8Array, limits: ProxyLimits = PROXY_LIMITS): ProxyGraphics {
  const shapes: ProxyShape[] = [];
  const out: ProxyGraphics = { shapes, skipped: 0, truncated: false };
  if (data.length < 8) return out;
  const header = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let attributes: ProxyAttributes = { color: 256 };
  let fill = false;
  let points = 0;
  const matrices: Matrix[] = [];
  const apply = ([x, y, z]: [number, number, number]): Vec2 => {
    const m = matrices[matrices.length - 1];
    return m ? { x: (m[0] as number) * x + (m[1] as number) * y + (m[2] as number) * z + (m[3] as number), y: (m[4] as number) * x + (m[5] as number) * y + (m[6] as number) * z + (m[7] as number) } : { x, y };
  };
  const scale = (): number => {
    const m = matrices[matrices.length - 1];
    return m ? Math.sqrt(Math.abs((m[0] as number) * (m[5] as number) - (m[1] as number) * (m[4] as number))) : 1;
  };
  const rotation = (): number => {
    const m = matrices[matrices.length - 1];
    return m ? (Math.atan2(m[4] as number, m[0] as number) * 180) / Math.PI : 0;
  };
  const add = (shape: ProxyShape, pointCount: number): void => {
    if (shapes.length >= limits.maxShapes || points + pointCount > limits.maxPoints) {
      out.truncated = true;
      return;
    }
    points += pointCount;
    shapes.push(shape);
    fill = false; // the fill attribute applies to the next shape only (as ezdxf reads it)
  };
  let at = 8;
  for (let command = 0; at + 8 <= data.length; command++) {
    if (command >= limits.maxCommands || out.truncated) {
      out.truncated = true;
      break;
    }
    const size = header.getUint32(at, true);
    const type = header.getUint32(at + 4, true);
    if (size < 8 || at + size > data.length) {
      out.skipped++;
      break; // a size that does not fit: the rest of the stream cannot be framed
    }
    const bytes = new Bytes(data.subarray(at + 8, at + size));
    at += size;
    try {
      const read = readCommand(type, bytes);
      if (read === undefined) out.skipped++;
    } catch (error) {
      if (!(error instanceof OutOfData)) throw error;
      out.skipped++;
    }
  }
  return out;

  /** Reads one command; undefined when its type is not drawn. */
  function readCommand(type: number, b: Bytes): true | undefined {
    switch (type) {
      case 2: {
        const center = b.vertex();
        const radius = b.f64();
        if (!finite(...center, radius)) return undefined;
        add({ kind: 'circle', center: apply(center), radius: Math.abs(radius) * scale(), attributes }, 1);
        return true;
      }
      case 4: {
        const center = b.vertex();
        const radius = b.f64();
        b.vertex(); // normal
        const start = b.vertex();
        const sweep = b.f64();
        if (!finite(...center, radius, ...start, sweep)) return undefined;
        const startAngle = (Math.atan2(start[1], start[0]) * 180) / Math.PI + rotation();
        add({ kind: 'arc', center: apply(center), radius: Math.abs(radius) * scale(), startAngle, endAngle: startAngle + (sweep * 180) / Math.PI, attributes }, 1);
        return true;
      }
      case 6:
      case 7:
      case 32: {
        const count = b.u32();
        if (count > limits.maxPoints) return undefined;
        const pts: Vec2[] = [];
        for (let i = 0; i < count; i++) {
          const v = b.vertex();
          if (!finite(...v)) return undefined;
          pts.push(apply(v));
        }
        add({ kind: 'polyline', points: pts, closed: type === 7, filled: fill && pts.length > 2, attributes }, pts.length);
        return true;
      }
      case 9:
        return readShell(b);
      case 10:
      case 36: {
        const start = b.vertex();
        b.vertex(); // normal
        const direction = b.vertex();
        const height = b.f64();
        b.f64(); // width factor
        b.f64(); // oblique
        const text = b.paddedString(type === 36);
        return addText(start, direction, height, text);
      }
      case 11:
      case 38: {
        const wide = type === 38;
        const start = b.vertex();
        b.vertex(); // normal
        const direction = b.vertex();
        const text = b.paddedString(wide);
        b.i32();
        b.i32();
        const height = b.f64();
        return addText(start, direction, height, text);
      }
      case 14: {
        const color = b.u32();
        attributes = { ...attributes, color: color <= 256 ? color : 256 };
        delete attributes.trueColor;
        return true;
      }
      case 16:
        attributes = { ...attributes, layerIndex: b.u32() };
        return true;
      case 18:
        attributes = { ...attributes, lineTypeIndex: b.u32() };
        return true;
      case 20:
        fill = b.u32() !== 0;
        return true;
      case 22: {
        // raw colour: method byte 0xC2 = RGB, 0xC3 = ACI, 0xC0 = BYLAYER, 0xC1 = BYBLOCK
        const raw = b.u32();
        const method = raw >>> 24;
        const next: ProxyAttributes = { ...attributes };
        delete next.trueColor;
        if (method === 0xc2) next.trueColor = raw & 0xffffff;
        else if (method === 0xc3) next.color = raw & 0xff;
        else if (method === 0xc1) next.color = 0;
        else next.color = 256;
        attributes = next;
        return true;
      }
      case 23: {
        const weight = b.i32();
        const next: ProxyAttributes = { ...attributes };
        if (weight >= 0 && weight <= 211) next.lineweight = weight;
        else delete next.lineweight;
        attributes = next;
        return true;
      }
      case 29: {
        const values: number[] = [];
        for (let i = 0; i < 16; i++) values.push(b.f64());
        if (!finite(...values)) return undefined;
        const top = matrices[matrices.length - 1];
        matrices.push(top ? multiply(top, values) : values);
        return true;
      }
      case 31:
        matrices.pop();
        return true;
      case 33:
        return readLwPolyline(b);
      default:
        return undefined; // extents, markers, materials, clip boundaries…: nothing to draw
    }
  }

  function addText(start: [number, number, number], direction: [number, number, number], height: number, text: string): true | undefined {
    if (!finite(...start, ...direction, height) || !text) return undefined;
    const angle = (Math.atan2(direction[1], direction[0]) * 180) / Math.PI + rotation();
    add({ kind: 'text', at: apply(start), height: Math.abs(height) * scale(), rotation: angle, text, attributes }, 1);
    return true;
  }

  /** SHELL: vertices, then faces as (count, indices…); each face is drawn as its closed outline. */
  function readShell(b: Bytes): true | undefined {
    const vertexCount = b.u32();
    if (vertexCount > limits.maxPoints) return undefined;
    const vertices: Vec2[] = [];
    for (let i = 0; i < vertexCount; i++) vertices.push(apply(b.vertex()));
    const entries = b.u32();
    let read = 0;
    while (read < entries) {
      const count = Math.abs(b.i32());
      read += 1 + count;
      if (count > vertexCount) return undefined;
      const face: Vec2[] = [];
      for (let i = 0; i < count; i++) {
        const v = vertices[b.u32()];
        if (!v) return undefined;
        face.push(v);
      }
      if (face.length > 1 && finite(...face.flatMap((p) => [p.x, p.y]))) add({ kind: 'polyline', points: face, closed: true, filled: false, attributes }, face.length);
      if (out.truncated) break;
    }
    return true;
  }

  /**
   * LWPOLYLINE: a byte count, then the entity's DWG bit-coded data (flag, point count, bulge and
   * width counts, the first point raw and the others as deltas with defaults, then bulges).
   */
  function readLwPolyline(b: Bytes): true | undefined {
    const length = b.u32();
    if (length > b.data.length - b.at) return undefined;
    const bits = new Bits(b.data.subarray(b.at, b.at + length));
    const flag = bits.bitShort();
    if (flag & 4) bits.bitDouble(); // constant width
    if (flag & 8) bits.bitDouble(); // elevation
    if (flag & 2) bits.bitDouble(); // thickness
    if (flag & 1) for (let i = 0; i < 3; i++) bits.bitDouble(); // extrusion
    const count = bits.bitLong();
    const bulgeCount = flag & 16 ? bits.bitLong() : 0;
    if (flag & 1024) bits.bitLong(); // vertex id count (R2010+); the ids follow the bulges, unused here
    const widthCount = flag & 32 ? bits.bitLong() : 0;
    if (count < 1 || count > limits.maxPoints || bulgeCount < 0 || bulgeCount > count || widthCount < 0 || widthCount > count) return undefined;
    const local: [number, number, number][] = [[bits.rawDouble(), bits.rawDouble(), 0]];
    for (let i = 1; i < count; i++) {
      const previous = local[i - 1] as [number, number, number];
      local.push([bits.bitDoubleDefault(previous[0]), bits.bitDoubleDefault(previous[1]), 0]);
    }
    const bulges: number[] = [];
    for (let i = 0; i < bulgeCount; i++) bulges.push(bits.bitDouble());
    if (!finite(...local.flat(), ...bulges)) return undefined;
    const shape: ProxyShape = { kind: 'polyline', points: local.map(apply), closed: (flag & 512) !== 0, filled: false, attributes };
    if (bulges.some((v) => v !== 0)) shape.bulges = bulges;
    add(shape, count);
    return true;
  }
}

/** a · b for 4×4 row-major matrices (column vectors: p' = M·p). */
function multiply(a: Matrix, b: Matrix): number[] {
  const out: number[] = [];
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += (a[r * 4 + k] as number) * (b[k * 4 + c] as number);
    out.push(sum);
  }
  return out;
}

/**
 * The proxy graphics bytes of an entity's tags: the byte count (160, or 92 before R2010) followed
 * by its 310 hex chunks, stopping at the count; undefined when there are none or over `maxBytes`.
 */
export function proxyGraphicsBytes(codes: ArrayLike<number>, values: ArrayLike<string>, start: number, end: number, maxBytes: number): Uint8Array | undefined {
  for (let i = start; i < end - 1; i++) {
    if ((codes[i] !== 160 && codes[i] !== 92) || codes[i + 1] !== 310) continue;
    const size = Number.parseInt((values[i] as string).trim(), 10);
    if (!Number.isFinite(size) || size <= 8 || size > maxBytes) return undefined;
    const bytes = new Uint8Array(size);
    let filled = 0;
    for (let j = i + 1; j < end && codes[j] === 310 && filled < size; j++) {
      const hex = (values[j] as string).trim();
      for (let k = 0; k + 1 < hex.length && filled < size; k += 2) {
        const byte = Number.parseInt(hex.slice(k, k + 2), 16);
        if (Number.isNaN(byte)) return undefined;
        bytes[filled++] = byte;
      }
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
  }
  return undefined;
}

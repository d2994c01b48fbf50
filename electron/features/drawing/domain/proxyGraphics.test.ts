import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDocument } from './documentLoader';
import { parseProxyGraphics, proxyGraphicsBytes, type ProxyLimits } from './proxyGraphics';
import { readTextTags } from './tags';
import { flattenEntity } from './world';

/** Builds a proxy graphics stream: header (size, count) + commands [size][type][data]. */
function stream(commands: [number, Uint8Array][]): Uint8Array {
  const body = commands.map(([type, data]) => {
    const out = new Uint8Array(8 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, out.length, true);
    view.setUint32(4, type, true);
    out.set(data, 8);
    return out;
  });
  const size = 8 + body.reduce((sum, b) => sum + b.length, 0);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, size, true);
  new DataView(out.buffer).setUint32(4, commands.length, true);
  let at = 8;
  for (const b of body) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}
const doubles = (...values: number[]): Uint8Array => {
  const out = new Uint8Array(values.length * 8);
  values.forEach((v, i) => new DataView(out.buffer).setFloat64(i * 8, v, true));
  return out;
};
const u32 = (...values: number[]): Uint8Array => {
  const out = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(out.buffer).setUint32(i * 4, v, true));
  return out;
};
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const utf16z = (text: string): Uint8Array => {
  const bytes = new Uint8Array(Math.ceil(((text.length + 1) * 2) / 4) * 4);
  for (let i = 0; i < text.length; i++) new DataView(bytes.buffer).setUint16(i * 2, text.charCodeAt(i), true);
  return bytes;
};

describe('proxy graphics stream', () => {
  it('reads colour, layer and fill attributes and the polyline, polygon, circle, arc and text commands', () => {
    const data = stream([
      [14, u32(1)], // colour red
      [16, u32(3)], // layer #3
      [6, concat(u32(2), doubles(0, 0, 0, 10, 0, 0))],
      [20, u32(1)], // fill the next shape
      [7, concat(u32(3), doubles(0, 0, 0, 1, 0, 0, 0, 1, 0))],
      [2, doubles(5, 5, 0, 2, 0, 0, 1)],
      [4, doubles(0, 0, 0, 3, 0, 0, 1, 0, 1, 0, Math.PI / 2, 0)],
      [36, concat(doubles(1, 2, 0, 0, 0, 1, 1, 0, 0, 2.5, 1, 0), utf16z('墙'))],
      [99, u32(7)], // unknown command: skipped
    ]);
    const { shapes, skipped, truncated } = parseProxyGraphics(data);
    expect(truncated).toBe(false);
    expect(skipped).toBe(1);
    expect(shapes).toEqual([
      { kind: 'polyline', points: [{ x: 0, y: 0 }, { x: 10, y: 0 }], closed: false, filled: false, attributes: { color: 1, layerIndex: 3 } },
      { kind: 'polyline', points: [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }], closed: true, filled: true, attributes: { color: 1, layerIndex: 3 } },
      { kind: 'circle', center: { x: 5, y: 5 }, radius: 2, attributes: { color: 1, layerIndex: 3 } },
      { kind: 'arc', center: { x: 0, y: 0 }, radius: 3, startAngle: 90, endAngle: 180, attributes: { color: 1, layerIndex: 3 } },
      { kind: 'text', at: { x: 1, y: 2 }, height: 2.5, rotation: 0, text: '墙', attributes: { color: 1, layerIndex: 3 } },
    ]);
  });

  it('applies a pushed model transform until it is popped', () => {
    // translate by (100, 0) and scale by 2 (row-major, column vectors)
    const matrix = doubles(2, 0, 0, 100, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1);
    const { shapes } = parseProxyGraphics(stream([[29, matrix], [2, doubles(1, 1, 0, 1, 0, 0, 1)], [31, new Uint8Array()], [2, doubles(1, 1, 0, 1, 0, 0, 1)]]));
    expect(shapes.map((s) => (s.kind === 'circle' ? [s.center.x, s.center.y, s.radius] : []))).toEqual([
      [102, 2, 2],
      [1, 1, 1],
    ]);
  });

  it('collects the bytes after the 160/92 count from the 310 chunks only', () => {
    const codes = [8, 160, 310, 310, 162, 311];
    const values = ['WALL', '3', '0A0B', '0C', '2', 'FFFF'];
    expect(proxyGraphicsBytes(codes, values, 0, codes.length, 1024)).toBeUndefined(); // 3 bytes: too short for a header
    expect([...(proxyGraphicsBytes([92, 310], ['9', '000000000000000001'], 0, 2, 1024) ?? [])]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(proxyGraphicsBytes([92, 310], ['9', '000000000000000001'], 0, 2, 8)).toBeUndefined(); // over the cap
  });

  it('never throws on random bytes and keeps its output within the limits (property)', () => {
    const limits: ProxyLimits = { maxCommands: 200, maxShapes: 50, maxPoints: 400 };
    const framed = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.uint8Array({ maxLength: 120 })), { maxLength: 30 }).map((commands) => stream(commands));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), framed), (bytes) => {
        const { shapes } = parseProxyGraphics(bytes, limits);
        expect(shapes.length).toBeLessThanOrEqual(limits.maxShapes);
        const points = shapes.reduce((sum, s) => sum + (s.kind === 'polyline' ? s.points.length : 1), 0);
        expect(points).toBeLessThanOrEqual(limits.maxPoints);
      }),
      { numRuns: 400 },
    );
  });
});

const tarch = path.resolve('../shared/corpus/dxf/cn_arch_tangent_gh109_1_R2013.dxf');
if (!existsSync(tarch)) process.stdout.write(`[proxyGraphics.test] corpus test skipped: ${tarch} is not present\n`);

describe.skipIf(!existsSync(tarch))('TArch (天正) custom objects of a real Chinese plan', () => {
  it('draws walls, windows, doors, stairs and axes from their proxy graphics, on their layers, with their labels', () => {
    const doc = buildDocument(readTextTags(readFileSync(tarch, 'utf8')), { codePage: 'UTF-8' });
    const proxies = doc.layouts.flatMap((l) => l.entities).filter((e) => e.type === 'ACAD_PROXY_ENTITY');
    expect(proxies.length).toBe(25);
    const primitives = proxies.flatMap((e) => flattenEntity(doc, e));
    const texts = primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    // door and window tags, axis numbers and the stair's 上/下 arrows (ezdxf 0.18 reads the windows
    // and the axis bubbles; the doors, stair and dimension axes use LWPOLYLINE commands it cannot read)
    expect(texts).toEqual(expect.arrayContaining(['M0921', 'C1815', '1', '2', '上', '下', '24370']));
    const wall = flattenEntity(doc, doc.entitiesByHandle.get('28A')!);
    expect(wall.length).toBe(6); // ezdxf: 6 POLYLINEs
    expect(wall.every((p) => p.layer === 'WALL' && p.color.aci === 9)).toBe(true);
    // the door swing of 2FD is an LWPOLYLINE with a bulge: an arc, many points
    expect(flattenEntity(doc, doc.entitiesByHandle.get('2FD')!).some((p) => p.kind === 'path' && p.points.length > 10)).toBe(true);
  });
});

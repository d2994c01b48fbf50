import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { DrawingIndex } from '../../domain/bounds';
import type { Box } from '../../domain/model';
import type { Primitive } from '../../domain/world';
import { openDxfFile } from '../file/openDxfFile';
import { createCanvasDxfRenderer } from './canvasRenderer';

type TextPrimitive = Extract<Primitive, { kind: 'text' }>;
const FIXTURES = path.resolve('electron/testSupport/fixtures/dxf');
const renderer = createCanvasDxfRenderer();

async function open(name: string): Promise<{ index: DrawingIndex; texts: TextPrimitive[] }> {
  const index = new DrawingIndex((await openDxfFile(path.join(FIXTURES, name))).document);
  const model = index.doc.layouts.find((l) => !l.paperSpace)!;
  const texts = model.entities.flatMap((e) => index.primitives(e)).filter((p): p is TextPrimitive => p.kind === 'text');
  return { index, texts };
}

/** Ink (dark pixel) mask of a drawing box rendered at 10 px per unit. */
async function ink(index: DrawingIndex, bbox: Box): Promise<{ width: number; height: number; dark: boolean[] }> {
  const picture = await renderer.render({ index, layout: 'Model', bbox, maxEdge: 10 * Math.max(bbox.maxX - bbox.minX, bbox.maxY - bbox.minY), highlight: [] });
  const image = await loadImage(Buffer.from(picture.png));
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  const data = ctx.getImageData(0, 0, image.width, image.height).data;
  const dark: boolean[] = [];
  for (let i = 0; i < data.length; i += 4) dark.push((data[i] as number) + (data[i + 1] as number) + (data[i + 2] as number) < 3 * 128);
  return { width: image.width, height: image.height, dark };
}

/** Share of ink pixels of `a` without a counterpart in `b` mirrored left-right (one pixel of slack). */
function mirrorMismatch(a: { width: number; height: number; dark: boolean[] }, b: { width: number; dark: boolean[] }): number {
  let inked = 0;
  let missed = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!a.dark[y * a.width + x]) continue;
      inked++;
      const mx = a.width - 1 - x;
      if (![-1, 0, 1].some((d) => b.dark[y * b.width + mx + d])) missed++;
    }
  }
  return inked === 0 ? 1 : missed / inked;
}

describe('text as AutoCAD draws it (generated fixture and ezdxf corpus drawing)', () => {
  it('reads stacked tolerances and a dimension whose block keeps the <> placeholder as plain text', async () => {
    const { texts } = await open('text_mirror_stack.dxf');
    expect(texts.map((t) => t.text)).toContain('75 +0/-0.05  1 1/2  3 3/4  H7');
    // the dimension's block MTEXT is "<>\S+0^-0.05;": the placeholder becomes the measured 75
    const dimension = texts.find((t) => t.text.endsWith('+0/-0.05') && t.text.startsWith('75 +0'));
    expect(dimension?.text).toBe('75 +0/-0.05');
    expect(dimension?.runs?.[0]).toEqual([{ kind: 'text', text: '75' }, { kind: 'stack', upper: '+0', lower: '-0.05', style: 'tolerance' }]);
  });

  it('gives flagged, extruded and mirrored-insert texts a mirrored frame, and keeps width factor and oblique', async () => {
    const { texts } = await open('text_mirror_stack.dxf');
    const frame = (text: string, nth = 0): Pick<TextPrimitive, 'rotation' | 'mirrored' | 'widthFactor' | 'oblique' | 'at'> => {
      const t = texts.filter((p) => p.text === text)[nth]!;
      return { rotation: Math.round(((t.rotation % 360) + 360) % 360), mirrored: t.mirrored, widthFactor: t.widthFactor, oblique: t.oblique, at: t.at };
    };
    expect(frame('BACKWARD')).toMatchObject({ rotation: 180, mirrored: true });
    expect(frame('UPSIDE')).toMatchObject({ rotation: 0, mirrored: true });
    expect(frame('EXTRUSION-Z')).toMatchObject({ rotation: 180, mirrored: true, at: { x: 60, y: 85 } });
    expect(frame('MTEXT -Z')).toMatchObject({ rotation: 0, mirrored: true });
    expect(frame('WIDE 1.5')).toMatchObject({ widthFactor: 1.5 });
    expect(frame('OBLIQUE 30')).toMatchObject({ oblique: 30 });
    expect(frame('BLOCK TXT', 0).mirrored).toBeUndefined();
    expect(frame('BLOCK TXT', 1)).toMatchObject({ rotation: 180, mirrored: true, at: { x: 190, y: 40 } });
    expect(frame('BLOCK MTX', 1)).toMatchObject({ rotation: 180, mirrored: true });
  });

  it('draws a backward TEXT as the mirror image of the same text written forwards', async () => {
    const { index } = await open('text_mirror_stack.dxf');
    // "MIRROR", 5 high: forwards from x = 20, backward leftwards from x = 90
    const width = 26;
    const forwards = await ink(index, { minX: 20, minY: 28, maxX: 20 + width, maxY: 37 });
    const backward = await ink(index, { minX: 90 - width, minY: 28, maxX: 90, maxY: 37 });
    expect(forwards.dark.filter(Boolean).length).toBeGreaterThan(200);
    expect(mirrorMismatch(forwards, backward)).toBeLessThan(0.03);
    expect(mirrorMismatch(forwards, forwards)).toBeGreaterThan(0.2); // "MIRROR" is not its own mirror image
  });

  it('draws the text of a block inserted with X scale −1 mirrored, as AutoCAD does whatever MIRRTEXT says', async () => {
    const { index } = await open('text_mirror_stack.dxf');
    const width = 30;
    const plain = await ink(index, { minX: 110, minY: 58, maxX: 110 + width, maxY: 66 });
    const mirrored = await ink(index, { minX: 190 - width, minY: 38, maxX: 190, maxY: 46 });
    expect(mirrorMismatch(plain, mirrored)).toBeLessThan(0.03);
  });

  it('draws a tolerance stacked: its lower part hangs below the baseline of the number before it', async () => {
    const { index } = await open('text_mirror_stack.dxf');
    // "75" from x = 10 on the MTEXT's first line (top at y = 60, 5 high: baseline at y = 55), the stack after it
    const line = await ink(index, { minX: 10, minY: 52, maxX: 24, maxY: 61 });
    const belowBaseline = (fromX: number, toX: number): number => {
      let count = 0;
      for (let y = Math.ceil((61 - 54.7) * 10); y < line.height; y++) for (let x = fromX * 10; x < toX * 10; x++) if (line.dark[y * line.width + x]) count++;
      return count;
    };
    expect(belowBaseline(0, 6)).toBe(0); // under "75"
    expect(belowBaseline(7.5, 14)).toBeGreaterThan(20); // under the stack: its lower part "-0.05"
  });

  it('mirrors the MTEXT of a real drawing written with a negative extrusion, as ezdxf draws it', async () => {
    const { texts } = await open('ezdxf_mtext_inline_codes.dxf');
    expect(texts).toHaveLength(8);
    expect(texts.filter((t) => t.mirrored)).toHaveLength(4);
    expect(texts.every((t) => t.runs !== undefined)).toBe(true); // each copy has the "Including fractions" stacks
  });
});

// Render tests of the entity kinds drawn by their own modules: WIPEOUT masking in drawing order,
// gradient fills, clipped hatch patterns, meshes and proxy graphics, read back pixel by pixel.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { DrawingIndex } from '../../domain/bounds';
import { buildDocument } from '../../domain/documentLoader';
import { readTextTags } from '../../domain/tags';
import { createCanvasDxfRenderer } from './canvasRenderer';

const renderer = createCanvasDxfRenderer();
const BOX = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** Renders ENTITIES text over 0..100 at 200 px and returns a pixel reader (drawing coordinates). */
async function render(entities: string): Promise<(x: number, y: number) => [number, number, number]> {
  const doc = buildDocument(readTextTags(`0\nSECTION\n2\nENTITIES\n${entities}0\nENDSEC\n0\nEOF\n`), { codePage: 'ANSI_1252' });
  const image = await renderer.render({ index: new DrawingIndex(doc), layout: 'Model', bbox: BOX, maxEdge: 200, highlight: [] });
  const picture = await loadImage(Buffer.from(image.png));
  const canvas = createCanvas(picture.width, picture.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(picture, 0, 0);
  const data = ctx.getImageData(0, 0, picture.width, picture.height).data;
  return (x, y) => {
    const i = (Math.min(picture.height - 1, Math.floor((BOX.maxY - y) * 2)) * picture.width + Math.min(picture.width - 1, Math.floor(x * 2))) * 4;
    return [data[i] as number, data[i + 1] as number, data[i + 2] as number];
  };
}

const thickLine = (y: number): string => `0\nLWPOLYLINE\n8\n0\n62\n1\n90\n2\n70\n0\n43\n4\n10\n0\n20\n${y}\n10\n100\n20\n${y}\n`;
const wipeout = (x: number, y: number, size: number): string => `0\nWIPEOUT\n8\n0\n10\n${x}\n20\n${y}\n11\n${size}\n21\n0\n12\n0\n22\n${size}\n13\n1\n23\n1\n71\n1\n91\n2\n14\n-0.5\n24\n-0.5\n14\n0.5\n24\n0.5\n`;
const square = (x0: number, size: number): string => `91\n1\n92\n2\n72\n0\n73\n1\n93\n4\n10\n${x0}\n20\n${x0}\n10\n${x0 + size}\n20\n${x0}\n10\n${x0 + size}\n20\n${x0 + size}\n10\n${x0}\n20\n${x0 + size}\n97\n0\n`;
const dark = ([r, g, b]: [number, number, number]): boolean => r + g + b < 600;

describe('rendering of hatch patterns, gradients, wipeouts, meshes and proxy graphics', () => {
  it('hides what a WIPEOUT covers and only that: a line drawn before it is masked, one drawn after stays', async () => {
    const pixel = await render(thickLine(50) + wipeout(30, 30, 40) + thickLine(60));
    expect(dark(pixel(10, 50))).toBe(true); // outside the mask
    expect(pixel(50, 50)).toEqual([255, 255, 255]); // under the mask
    expect(dark(pixel(50, 60))).toBe(true); // drawn after the mask, on top of it
  });

  it('fills a gradient hatch blending its two colours across the outline', async () => {
    const hatch = `0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n71\n0\n${square(10, 80)}75\n0\n76\n1\n98\n0\n450\n1\n451\n0\n452\n0\n453\n2\n460\n0\n461\n0\n462\n1\n463\n0\n63\n5\n421\n255\n463\n1\n63\n1\n421\n16711680\n470\nLINEAR\n`;
    const pixel = await render(hatch);
    const [left, right] = [pixel(14, 50), pixel(86, 50)];
    expect(left[2]).toBeGreaterThan(left[0] + 100); // blue side
    expect(right[0]).toBeGreaterThan(right[2] + 100); // red side
    expect(pixel(5, 50)).toEqual([255, 255, 255]);
  });

  it('draws a pattern hatch as its lines inside the boundary, without the boundary outline', async () => {
    const hatch = `0\nHATCH\n8\n0\n62\n7\n2\nMY\n70\n0\n71\n0\n${square(20, 60)}75\n0\n76\n2\n52\n0\n41\n1\n77\n0\n78\n1\n53\n0\n43\n0\n44\n0.25\n45\n0\n46\n10\n79\n0\n98\n0\n`;
    const pixel = await render(hatch);
    expect(dark(pixel(50, 50.25))).toBe(true); // the line y = 50.25
    expect(dark(pixel(50, 45))).toBe(false); // between lines
    expect(dark(pixel(20, 45))).toBe(false); // the boundary itself is not drawn
    expect(dark(pixel(10, 50.25))).toBe(false); // clipped outside
  });

  it('draws a polygon mesh as its grid of edges', async () => {
    const v = (x: number, y: number): string => `0\nVERTEX\n8\n0\n10\n${x}\n20\n${y}\n70\n64\n`;
    const mesh = `0\nPOLYLINE\n8\n0\n66\n1\n70\n16\n71\n2\n72\n2\n${v(10, 10)}${v(90, 10)}${v(10, 90)}${v(90, 90)}0\nSEQEND\n`;
    const pixel = await render(mesh);
    expect(dark(pixel(50, 10)) && dark(pixel(50, 90)) && dark(pixel(10, 50)) && dark(pixel(90, 50))).toBe(true);
    expect(dark(pixel(50, 50))).toBe(false); // no diagonal: the vertices are a grid, not a polyline path
  });

  it('draws an ACAD_PROXY_ENTITY from its proxy graphics (a circle)', async () => {
    const data = new Uint8Array(8 + 8 + 56);
    const view = new DataView(data.buffer);
    view.setUint32(0, data.length, true);
    view.setUint32(4, 1, true);
    view.setUint32(8, 64, true);
    view.setUint32(12, 2, true);
    [50, 50, 0, 30, 0, 0, 1].forEach((d, i) => view.setFloat64(16 + i * 8, d, true));
    const hex = [...data].map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
    const pixel = await render(`0\nACAD_PROXY_ENTITY\n8\n0\n62\n1\n100\nAcDbProxyEntity\n90\n498\n92\n${data.length}\n310\n${hex}\n`);
    expect(dark(pixel(80, 50))).toBe(true);
    expect(dark(pixel(50, 80))).toBe(true);
    expect(dark(pixel(50, 50))).toBe(false);
  });
});

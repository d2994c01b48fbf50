import { Resvg } from '@resvg/resvg-js';

/** Rasterizes a line-drawing SVG to PNG at a fixed width (white background from the SVG). */
export function renderPng(svg: string, widthPx: number): Uint8Array {
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: widthPx }, font: { loadSystemFonts: false } });
  return resvg.render().asPng();
}

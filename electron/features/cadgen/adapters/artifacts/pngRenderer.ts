import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { DEFAULT_CJK_FONT_FILES } from '../../../drawing/index';

/**
 * Rasterizes a line-drawing SVG to PNG at a fixed width (white background from the SVG). English
 * drawings are all stroked lettering and need no font; a drawing with typeset (Chinese) labels
 * gets the installed Noto CJK collection, never the machine's other fonts.
 */
export function renderPng(svg: string, widthPx: number): Uint8Array {
  const fontFiles = svg.includes('<text') ? DEFAULT_CJK_FONT_FILES.filter((f) => existsSync(f)) : [];
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: widthPx }, font: { loadSystemFonts: false, fontFiles, defaultFontFamily: 'Noto Sans CJK SC' } });
  return resvg.render().asPng();
}

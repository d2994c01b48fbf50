import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { DEFAULT_CJK_FONT_FILES } from '../../../drawing/index';
import type { ReviewPngOptions } from '../../ports/artifactPublisher';

/**
 * Rasterizes a line-drawing SVG to PNG at a fixed width (white background from the SVG). English
 * drawings are all stroked lettering and need no font; a drawing with typeset (Chinese) labels
 * gets the installed Noto CJK collection, never the machine's other fonts.
 */
export function renderPng(svg: string, widthPx: number): Uint8Array {
  return rasterize(svg, widthPx).asPng();
}

function rasterize(svg: string, widthPx: number) {
  const fontFiles = svg.includes('<text') ? DEFAULT_CJK_FONT_FILES.filter((f) => existsSync(f)) : [];
  return new Resvg(svg, { fitTo: { mode: 'width', value: widthPx }, font: { loadSystemFonts: false, fontFiles, defaultFontFamily: 'Noto Sans CJK SC' } }).render();
}

let sharpLoaded: Promise<typeof import('sharp')> | undefined;

/**
 * A reviewer's render: resvg at `widthPx`, then libimagequant to a palette of `colours` entries
 * without dithering (dithered line art compresses worse and blurs thin lines). `grey` drops the
 * colour first, so the palette holds only grey levels (the shaded view).
 */
export async function renderReviewPng(svg: string, options: ReviewPngOptions): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const rendered = rasterize(svg, options.widthPx);
  const { width, height } = rendered;
  const sharp = (await (sharpLoaded ??= import('sharp'))).default;
  let image = sharp(rendered.pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  if (options.grey) image = image.grayscale();
  const bytes = await image.png({ palette: true, colours: options.colours, dither: 0, effort: 10, compressionLevel: 9 }).toBuffer();
  return { bytes: new Uint8Array(bytes), width, height };
}

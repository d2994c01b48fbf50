import { Resvg } from '@resvg/resvg-js';
import type { ReviewPngOptions } from '../../ports/artifactPublisher';

/** Rasterizes a line-drawing SVG to PNG at a fixed width (white background from the SVG). */
export function renderPng(svg: string, widthPx: number): Uint8Array {
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: widthPx }, font: { loadSystemFonts: false } });
  return resvg.render().asPng();
}

let sharpLoaded: Promise<typeof import('sharp')> | undefined;

/**
 * A reviewer's render: resvg at `widthPx`, then libimagequant to a palette of `colours` entries
 * without dithering (dithered line art compresses worse and blurs thin lines). `grey` drops the
 * colour first, so the palette holds only grey levels (the shaded view).
 */
export async function renderReviewPng(svg: string, options: ReviewPngOptions): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: options.widthPx }, font: { loadSystemFonts: false } }).render();
  const { width, height } = rendered;
  const sharp = (await (sharpLoaded ??= import('sharp'))).default;
  let image = sharp(rendered.pixels, { raw: { width, height, channels: 4 } }).removeAlpha();
  if (options.grey) image = image.grayscale();
  const bytes = await image.png({ palette: true, colours: options.colours, dither: 0, effort: 10, compressionLevel: 9 }).toBuffer();
  return { bytes: new Uint8Array(bytes), width, height };
}

// A 4000×3000 anti-aliased colour CAD sheet (SVG rendered by librsvg through sharp: lines,
// circles and dimension text in layer colours, like an exported drawing) prepared for a
// 1280 px provider: the bytes sent against the file an untouched forwarder (picsense) sends,
// the small-text verdict, and a zoom into the proposed region reading the text at a legible size.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lineArtPng } from '../../../testSupport/visionFixtures/images';
import { imageLimitsFor } from '../domain/imageLimits';
import { regionToPixels } from '../domain/imageMath';
import { sniffImage } from '../domain/imageSniff';
import { findSmallText, inkMask, MIN_LEGIBLE_TEXT_PX } from '../domain/textLegibility';
import { createSharpImageProcessor } from './sharpImageProcessor';

const limits = imageLimitsFor({ protocol: 'chat-completions', id: 'chat', baseUrl: 'http://127.0.0.1/v1', model: 'm' }, 1280);
const processor = createSharpImageProcessor({ limits, format: 'png', maxInputPixels: 40_000_000 });

async function textHeightOf(png: Uint8Array): Promise<number | undefined> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return findSmallText(inkMask(data, info.width, info.height, info.channels), info.width, info.height)?.textHeightPx;
}

describe('small text on a real anti-aliased colour drawing', () => {
  it('sends the 4000×3000 sheet in at most 0.2× the original bytes, says its text is too small, and a zoom on the proposed region makes it legible', async () => {
    const png = await lineArtPng(4000, 3000);
    const result = await processor.prepare(png, sniffImage(png));
    expect(result.prepared.width).toBe(1280);
    expect(result.prepared.bytes.length / png.length).toBeLessThanOrEqual(0.2);
    const found = result.smallText;
    expect(found, 'dimension text of 14-34 px at 4000 px is 4-11 px at 1280 px').toBeDefined();
    expect(found!.textHeightPx).toBeLessThan(MIN_LEGIBLE_TEXT_PX);
    expect(found!.zoomRegions.length).toBeGreaterThan(0);
    const crop = await processor.crop(png, regionToPixels(found!.zoomRegions[0]!, 4000, 3000));
    // In the zoomed crop the same text is no longer reported as small.
    expect(await textHeightOf(crop.bytes)).toBeUndefined();
  }, 120_000);

  it('says nothing about a sheet whose text stays legible at the sent size', async () => {
    const texts = Array.from({ length: 60 }, (_, i) => `<text x="${150 + (i % 6) * 600}" y="${200 + Math.floor(i / 6) * 270}" font-size="110" fill="#a00" font-family="sans-serif">Ø${40 + i} H7</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><rect width="100%" height="100%" fill="#fff"/><rect x="50" y="50" width="3900" height="2900" fill="none" stroke="#000" stroke-width="8"/>${texts}</svg>`;
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const result = await processor.prepare(png, sniffImage(png));
    expect(result.reencoded).toBe(true);
    expect(result.smallText).toBeUndefined();
  }, 120_000);
});

import type { DrawingSource } from '../ports/drawingSource';
import type { ReviewOutput } from '../ports/reviewOutput';
import type { ScreenshotRef, TextItem } from '../domain/evidence';
import type { Frame } from '../domain/frame';
import { planScreenshotTiles, type BBox } from '../domain/geometry';
import { badResult, callTool, type ToolCallMeter } from './toolCalls';
import { decodeScreenshotMeta } from './payloadDecoders';
import { sheetOf, sheetSpaceArgs, type Sheet } from '../domain/sheet';

/** Long edge of screenshots (the vision preprocessing default; larger images cost tokens, not legibility). */
export const SCREENSHOT_MAX_EDGE = 1280;
/** Text smaller than this many pixels is not reliably legible to a vision model. */
export const MIN_TEXT_PIXELS = 12;
export const MAX_TILES = 9;

/** File names under the report folder must not depend on what a backend calls its frames. */
export const safeFileStem = (id: string): string => id.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'frame';

/** A screenshot written to the report folder, with its bytes for the model. */
export interface CapturedScreenshot {
  ref: ScreenshotRef;
  png: Uint8Array;
}

/** Renders a region of the sheet in its space: a paper sheet as plotted (its layout, model space through the viewports). */
async function capture(source: DrawingSource, meter: ToolCallMeter, tool: string, output: ReviewOutput, sheet: Sheet, region: BBox, file: string, id: string): Promise<CapturedScreenshot> {
  const result = await callTool(source, meter, tool, { ...sheetSpaceArgs(sheet), bbox: [region.minX, region.minY, region.maxX, region.maxY], max_edge: SCREENSHOT_MAX_EDGE });
  const image = result.content.find((block) => block.type === 'image');
  const meta = result.content.find((block) => block.type === 'text');
  if (!image || image.type !== 'image' || !meta || meta.type !== 'text') throw badResult(tool, 'expected an image part and a JSON text part');
  let metaJson: unknown;
  try {
    metaJson = JSON.parse(meta.text);
  } catch {
    throw badResult(tool, 'transform text is not JSON');
  }
  const decoded = decodeScreenshotMeta(tool, metaJson);
  const png = Buffer.from(image.data, 'base64');
  await output.writeFile(file, png);
  return { png, ref: { id, file, region: decoded.region, widthPx: decoded.widthPx, heightPx: decoded.heightPx, transform: decoded.transform } };
}

/**
 * Screenshots of a frame: always one overview (report thumbnail, UI); with `tiles` (LLM mode)
 * also a grid of tiles when the overview would render the smallest text below MIN_TEXT_PIXELS.
 */
export async function captureFrameScreenshots(
  source: DrawingSource,
  meter: ToolCallMeter,
  tool: string,
  output: ReviewOutput,
  frame: Frame,
  texts: readonly TextItem[],
  tiles: boolean,
): Promise<CapturedScreenshot[]> {
  const stem = safeFileStem(frame.id);
  const sheet = sheetOf(frame);
  const shots = [await capture(source, meter, tool, output, sheet, sheet.extents, `screenshots/${stem}.png`, `screenshot:${frame.id}/overview`)];
  if (!tiles) return shots;
  const minTextHeight = Math.min(...texts.map((t) => t.height).filter((h) => h > 0));
  if (!Number.isFinite(minTextHeight)) return shots;
  const grid = planScreenshotTiles(sheet.extents, { minTextHeight, minTextPixels: MIN_TEXT_PIXELS, maxEdge: SCREENSHOT_MAX_EDGE, maxTiles: MAX_TILES });
  if (grid.length === 1) return shots;
  for (const [index, region] of grid.entries()) {
    shots.push(await capture(source, meter, tool, output, sheet, region, `screenshots/${stem}-tile${index + 1}.png`, `screenshot:${frame.id}/tile${index + 1}`));
  }
  return shots;
}

import { anthropicImageTokens, estimateVisionTokens } from '../../../../../shared/imageBilling';
import { SHADED_ISO_SVG } from '../buildDocument';
import type { GenerationDeps } from './deps';

/** Image tokens one review may cost, by the dearer of the OpenAI tile rule and Anthropic's pixel rule. */
export const REVIEW_IMAGE_TOKEN_BUDGET = 2000;
/** Longest edge of a reviewer render: inside every provider's full-resolution size, one 2×2 OpenAI tile grid. */
export const REVIEW_MAX_LONG_EDGE = 1024;
/** Below this long edge the dimension lettering of a line view stops being legible; views are dropped instead. */
export const REVIEW_MIN_LONG_EDGE = 512;
/** Palette entries: black, white, the annotation blue, the hidden-line grey and their anti-aliasing; 12 shades. */
const LINE_COLOURS = 16;
const SHADED_COLOURS = 16;
/** Long edges tried for the shaded view, largest first. */
const SHADED_EDGES = [1024, 960, 896, 832, 768];
/**
 * Long edges tried for the line views: a full 2×2 tile grid or one tile. Anything in between pays
 * OpenAI's tiles of the larger size (a started tile is a whole tile) for fewer pixels.
 */
const LINE_EDGES = [REVIEW_MAX_LONG_EDGE, REVIEW_MIN_LONG_EDGE];
const ORTHO_VIEWS = ['front', 'top', 'left', 'right'] as const;

/** One image a reviewer is sent, in the order the images are attached. */
export interface SentRender {
  view: string;
  source: string;
  width: number;
  height: number;
  colour_mode: string;
  bytes: number;
  tokens: { openai: number; anthropic: number };
  why: string;
}

/** What the reviewer was shown and why: recorded in the review facts and the review document. */
export interface RenderChoice {
  budget_tokens: number;
  tokens: { openai: number; anthropic: number };
  bytes: number;
  sent: SentRender[];
  omitted: { view: string; why: string }[];
}

interface Wanted {
  view: string;
  source: string;
  svg: string;
  aspect: number;
  shaded: boolean;
  why: string;
}

/** Cost of a width×height render by the dearer provider rule. */
const tokensOf = (width: number, height: number) => ({ openai: estimateVisionTokens(width, height), anthropic: anthropicImageTokens(width, height) });
const dearer = (t: { openai: number; anthropic: number }): number => Math.max(t.openai, t.anthropic);

/** Width/height of an SVG's viewBox (the build writes one on every view). */
function aspectOf(svg: string): number {
  const box = /viewBox="([^"]+)"/.exec(svg)?.[1]?.trim().split(/\s+/).map(Number);
  const [w, h] = [box?.[2], box?.[3]];
  return w && h && w > 0 && h > 0 ? w / h : 1;
}

/** OpenAI bills an image per started 512 px tile; a side just past a tile boundary pays a whole tile row for a sliver. */
const TILE_PX = 512;
/** How far a render may shrink to end on a tile boundary (a 1024×589 view becomes 890×512: 425 tokens instead of 765). */
const TILE_SNAP_SHRINK = 0.2;

/**
 * Pixel size of a render whose long edge is `long`, shrunk onto a tile boundary where that costs
 * at most TILE_SNAP_SHRINK of its size and leaves the long edge legible. The snap aims half a
 * pixel inside the boundary so the rasterizer's rounding cannot spill into the next tile.
 */
function sizeAt(aspect: number, long: number): { width: number; height: number } {
  const exact = aspect >= 1 ? { width: long, height: long / aspect } : { width: long * aspect, height: long };
  const snap = (side: number): number => (side > TILE_PX && side % TILE_PX > 0.5 ? (Math.floor(side / TILE_PX) * TILE_PX - 0.5) / side : 1);
  const factor = Math.min(snap(exact.width), snap(exact.height));
  const legible = long * factor >= REVIEW_MIN_LONG_EDGE;
  const scale = factor < 1 && factor >= 1 - TILE_SNAP_SHRINK && legible ? factor : 1;
  const side = (v: number): number => Math.max(1, scale < 1 ? Math.floor(v * scale) : Math.round(v));
  return { width: side(exact.width), height: side(exact.height) };
}

/**
 * Long edges for the shaded view and the line views so the sum stays in the budget: the largest
 * shaded view that leaves every line view at least REVIEW_MIN_LONG_EDGE, and the line views at
 * the larger of LINE_EDGES the rest allows. Null when even the smallest sizes overrun the budget.
 */
function fitEdges(wanted: Wanted[]): Map<Wanted, number> | null {
  const cost = (w: Wanted, long: number) => dearer(tokensOf(sizeAt(w.aspect, long).width, sizeAt(w.aspect, long).height));
  const shaded = wanted.filter((w) => w.shaded);
  const lines = wanted.filter((w) => !w.shaded);
  for (const shadedEdge of shaded.length > 0 ? SHADED_EDGES : [0]) {
    const shadedCost = shaded.reduce((sum, w) => sum + cost(w, shadedEdge), 0);
    for (const long of LINE_EDGES) {
      if (shadedCost + lines.reduce((sum, w) => sum + cost(w, long), 0) > REVIEW_IMAGE_TOKEN_BUDGET) continue;
      return new Map(wanted.map((w) => [w, w.shaded ? shadedEdge : long]));
    }
  }
  return null;
}

/** The visible edges and callouts of a line view (solid black paths and the <desc>): what the eye reads first. */
function visiblePart(svg: string): string {
  return [...svg.matchAll(/<path d="([^"]*)" stroke="black"/g)].map((m) => m[1]).join('|') + (/<desc>(.*?)<\/desc>/.exec(svg)?.[1] ?? '');
}

/**
 * Chooses and rasterizes a review's images. `parentDir` (the revision the candidate builds on)
 * narrows the line views to those that changed against it, visible changes first; without a
 * parent (first candidate, final review) every line view is wanted, since the reviewer judges
 * the whole part (a final review's visual claims cite these renders). The shaded isometric view
 * (visible edges drawn) is always sent and replaces the hidden-line isometric view. Views that
 * do not fit REVIEW_IMAGE_TOKEN_BUDGET at REVIEW_MIN_LONG_EDGE are dropped from the end, hidden-
 * only changes first, and named in `omitted`.
 */
export async function reviewRenders(deps: GenerationDeps, taskId: string, dir: string, parent: { dir: string; revisionId: string } | null, reason: string): Promise<{ images: { mimeType: string; data: Uint8Array }[]; choice: RenderChoice }> {
  const read = (path: string) => deps.artifacts.readText(taskId, path);
  const wanted: Wanted[] = [];
  const omitted: { view: string; why: string }[] = [];
  const shaded = await read(`${dir}/${SHADED_ISO_SVG}`);
  const lineIso = await read(`${dir}/view-iso.svg`);
  if (shaded) {
    wanted.push({ view: 'iso-shaded', source: SHADED_ISO_SVG, svg: shaded, aspect: aspectOf(shaded), shaded: true, why: 'the whole part at a glance, shaded with visible edges' });
    if (lineIso) omitted.push({ view: 'iso', why: 'the shaded isometric view shows the same visible edges' });
  } else if (lineIso) {
    // Revisions built before the shaded view existed: the hidden-line iso view stands in, and says so.
    wanted.push({ view: 'iso', source: 'view-iso.svg', svg: lineIso, aspect: aspectOf(lineIso), shaded: false, why: 'this revision has no shaded view; the hidden-line isometric view instead' });
  }
  const hiddenOnly: Wanted[] = [];
  for (const view of ORTHO_VIEWS) {
    const source = `view-${view}.svg`;
    const svg = await read(`${dir}/${source}`);
    if (!svg) continue;
    const base = { view, source, svg, aspect: aspectOf(svg), shaded: false };
    const before = parent ? await read(`${parent.dir}/${source}`) : null;
    if (!parent || before === null) wanted.push({ ...base, why: parent ? `${parent.revisionId} has no ${view} view` : reason });
    else if (before === svg) omitted.push({ view, why: `unchanged against ${parent.revisionId}` });
    else if (visiblePart(before) !== visiblePart(svg)) wanted.push({ ...base, why: `visible edges or callouts changed against ${parent.revisionId}` });
    else hiddenOnly.push({ ...base, why: `only hidden edges changed against ${parent.revisionId}` });
  }
  wanted.push(...hiddenOnly);
  let edges = fitEdges(wanted);
  while (!edges && wanted.length > 1) {
    const dropped = wanted.pop() as Wanted;
    omitted.push({ view: dropped.view, why: `${dropped.why}, but over the ${REVIEW_IMAGE_TOKEN_BUDGET}-token image budget at ${REVIEW_MIN_LONG_EDGE} px` });
    edges = fitEdges(wanted);
  }
  const images: { mimeType: string; data: Uint8Array }[] = [];
  const sent: SentRender[] = [];
  for (const w of wanted) {
    const long = edges?.get(w) ?? REVIEW_MIN_LONG_EDGE;
    const widthPx = sizeAt(w.aspect, long).width;
    const png = await deps.encoders.reviewPng(w.svg, { widthPx, colours: w.shaded ? SHADED_COLOURS : LINE_COLOURS, grey: w.shaded });
    images.push({ mimeType: 'image/png', data: png.bytes });
    sent.push({ view: w.view, source: w.source, width: png.width, height: png.height, colour_mode: w.shaded ? `grey palette PNG, ${SHADED_COLOURS} levels` : `palette PNG, ${LINE_COLOURS} colours`, bytes: png.bytes.byteLength, tokens: tokensOf(png.width, png.height), why: w.why });
  }
  const sum = (key: 'openai' | 'anthropic') => sent.reduce((total, s) => total + s.tokens[key], 0);
  return { images, choice: { budget_tokens: REVIEW_IMAGE_TOKEN_BUDGET, tokens: { openai: sum('openai'), anthropic: sum('anthropic') }, bytes: sent.reduce((t, s) => t + s.bytes, 0), sent, omitted } };
}

/** Where a review's render choice is kept next to its review document (`revisionDir` is relative to the task). */
export const renderChoicePath = (revisionDir: string, kind: 'candidate' | 'final'): string => `${revisionDir}/reviews/${kind}-renders.json`;

/**
 * The render choice written when the review's images were prepared (null when that review was
 * never shown images, e.g. a handler driven directly by a test).
 */
export async function readRenderChoice(deps: GenerationDeps, taskId: string, revisionDir: string, kind: 'candidate' | 'final'): Promise<RenderChoice | null> {
  const text = await deps.artifacts.readText(taskId, renderChoicePath(revisionDir, kind));
  return text === null ? null : (JSON.parse(text) as RenderChoice);
}

import type { RuleParams } from '../checklist';
import type { DimensionItem, EntitySummary } from '../evidence';
import { boxOfPoints, pointInBox, type BBox } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, paperScaleKnown, say, type FrameRule } from './context';
import { overrideValue, statedNumber } from './textRules';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);
/** Feet-inch and fractional texts (1'-6", 3/4) are not decimal values this rule can compare. */
const NOT_DECIMAL = /['"″′]|\d\s*\/\s*\d/;

/**
 * DIM-002: what the dimension shows (its block text, after DIMLFAC, DIMPOST, rounding) disagrees
 * with what the geometry measures — "12000" on a 120 mm edge. Overridden texts are DIM-001's.
 * The tolerance is half a unit of the last shown digit plus the relative tolerance.
 */
export const dimensionDisplayRule: FrameRule<ParamsOf<'dimension_display'>> = (item, params, { frame, evidence, locale }) =>
  evidence.dimensions.flatMap((dim) => {
    if (dim.renderedText === undefined || dim.measurement === null || dim.position === null) return [];
    if (overrideValue(dim.textOverride) !== undefined || NOT_DECIMAL.test(dim.renderedText)) return [];
    const shown = statedNumber(dim.renderedText);
    if (!shown) return [];
    const measured = Math.abs(dim.measurement);
    const readings = dim.dimType?.startsWith('angular') ? [(measured * 180) / Math.PI, measured] : [measured];
    const tolerance = 0.5 * 10 ** -shown.decimals + shown.value * params.relativeTolerance;
    if (readings.some((m) => Math.abs(shown.value - m) <= tolerance)) return [];
    const ratio = measured > 0 ? shown.value / measured : 0;
    const hint = ratio > 0 && Math.abs(Math.log10(ratio) - Math.round(Math.log10(ratio))) < 1e-3 && Math.round(Math.log10(ratio)) !== 0;
    return [
      draftFor(item, frame.id, {
        message: say(
          locale,
          `尺寸显示为“${dim.renderedText}”，但几何实测为 ${fmt(measured)}${hint ? `（相差 ${fmt(ratio)} 倍，检查 DIMLFAC/标注样式）` : ''}。`,
          `The dimension shows "${dim.renderedText}" but the geometry measures ${fmt(measured)}${hint ? ` (a factor of ${fmt(ratio)}: check DIMLFAC / the dimension style)` : ''}.`,
        ),
        evidenceRefs: ['tool:get_dimensions', `entity:${dim.handle}`],
        location: { kind: 'point', point: dim.position },
        handles: [dim.handle],
        annotationText: say(locale, `显示 ${dim.renderedText}，实测 ${fmt(measured)}`, `Shows ${dim.renderedText}, measures ${fmt(measured)}`),
      }),
    ];
  });

/**
 * DIM-004 (GB/T 4458.4 with GB/T 14691): dimension text at paper scale on the lettering series and
 * not below the minimum; one finding per shown height, so a wrong style is one finding, not fifty.
 */
export const dimensionTextHeightRule: FrameRule<ParamsOf<'dimension_text_height'>> = (item, params, { frame, evidence, locale }) => {
  if (!paperScaleKnown(frame)) return [];
  const factor = frameUnitsPerPaperMm(frame);
  const off = new Map<string, DimensionItem[]>();
  for (const dim of evidence.dimensions) {
    if (dim.renderedHeight === undefined || dim.position === null) continue;
    const paper = dim.renderedHeight / factor;
    const onSeries = params.series.some((s) => Math.abs(paper - s) <= s * params.relativeTolerance);
    if (onSeries && paper >= params.minHeightMm * (1 - params.relativeTolerance)) continue;
    const key = fmt(paper);
    off.set(key, [...(off.get(key) ?? []), dim]);
  }
  return [...off.entries()].map(([paper, dims]) => {
    const nearest = params.series.filter((s) => s >= params.minHeightMm).reduce((best, s) => (Math.abs(s - Number(paper)) < Math.abs(best - Number(paper)) ? s : best), Math.max(params.minHeightMm, params.series[0]!));
    return draftFor(item, frame.id, {
      message: say(
        locale,
        `${dims.length} 个尺寸的文字在图纸上高 ${paper} mm，不符合字高系列或小于 ${fmt(params.minHeightMm)} mm，建议 ${fmt(nearest)} mm（调整 DIMTXT/DIMSCALE）。`,
        `${dims.length} dimension(s) have ${paper} mm text on paper, off the series or below ${fmt(params.minHeightMm)} mm; use ${fmt(nearest)} mm (DIMTXT/DIMSCALE).`,
      ),
      evidenceRefs: ['tool:get_dimensions', ...dims.slice(0, 50).map((d) => `entity:${d.handle}`)],
      location: dims.length === 1 ? { kind: 'point', point: dims[0]!.position! } : { kind: 'bbox', bbox: boxOfPoints(dims.map((d) => d.position!))! },
      handles: dims.map((d) => d.handle),
      discriminator: paper,
      annotationText: say(locale, `尺寸字高 ${paper} mm，建议 ${fmt(nearest)}`, `Dimension text ${paper} mm; use ${fmt(nearest)}`),
    });
  });
};

const CURVES = new Set(['CIRCLE', 'ARC', 'ELLIPSE', 'SPLINE']);
const PART_GEOMETRY = new Set([...CURVES, 'LINE', 'LWPOLYLINE', 'POLYLINE']);

/**
 * DIM-003: a frame that holds part geometry (at least minGeometry lines/curves, some of them
 * curves, outside the title block and off border/title layers) but not one dimension.
 */
export const frameWithoutDimensionsRule: FrameRule<ParamsOf<'frame_without_dimensions'>> = (item, params, { frame, evidence, locale }) => {
  if (evidence.dimensions.length > 0) return [];
  const ignored = new Set(params.ignoreLayers.map((l) => l.toUpperCase()));
  const titleBlock = frame.titleBlockBox;
  const part = evidence.entities.filter(
    (e) => PART_GEOMETRY.has(e.type) && !ignored.has(e.layer.toUpperCase()) && e.bbox !== undefined && !(titleBlock && inside(e.bbox, titleBlock)) && !isBorderLine(e, frame.bbox),
  );
  if (part.length < params.minGeometry || !part.some((e) => CURVES.has(e.type))) return [];
  const box = boxOfPoints(part.flatMap((e) => [{ x: e.bbox!.minX, y: e.bbox!.minY }, { x: e.bbox!.maxX, y: e.bbox!.maxY }]))!;
  return [
    draftFor(item, frame.id, {
      message: say(locale, `图框内有 ${part.length} 个图形元素，但没有任何尺寸标注。`, `The frame holds ${part.length} geometry entities but not one dimension.`),
      evidenceRefs: ['tool:get_entities', 'tool:get_dimensions'],
      location: { kind: 'bbox', bbox: box },
      handles: [],
      annotationText: say(locale, '本图未标注尺寸', 'No dimensions on this sheet'),
    }),
  ];
};

function inside(box: BBox, outer: BBox): boolean {
  return pointInBox({ x: box.minX, y: box.minY }, outer) && pointInBox({ x: box.maxX, y: box.maxY }, outer);
}

/** Border and title-block rules span a large share of the frame; part outlines rarely do. */
function isBorderLine(e: EntitySummary, frame: BBox): boolean {
  const b = e.bbox!;
  return b.maxX - b.minX >= 0.5 * (frame.maxX - frame.minX) || b.maxY - b.minY >= 0.5 * (frame.maxY - frame.minY);
}

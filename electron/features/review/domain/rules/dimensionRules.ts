import type { RuleParams } from '../checklist';
import type { DimensionItem, EntitySummary } from '../evidence';
import { boxOfPoints, pointInBox, type BBox } from '../geometry';
import { draftFor, frameUnitsPerPaperMm, paperScaleKnown, say, type FrameRule } from './context';
import { overrideValue, statedValue } from './dimensionRule';
import { inScaleSeries } from './scaleRule';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);
/** Scale factors a detail view is drawn at (GB/T 14690, 1:10 to 10:1): DIMLFAC = 1/view scale is then right. */
const plausibleViewFactor = (factor: number): boolean => factor >= 0.1 - 1e-9 && factor <= 10 + 1e-9 && inScaleSeries(factor, true);

/**
 * DIM-002: the dimension style's measurement factor (DIMLFAC) makes the shown value disagree with
 * the geometry — "12000" printed on a 120 mm edge. A factor that undoes a detail view's scale
 * (0.5 for a 2:1 detail, 2 for 1:2) is correct practice and passes; a shown text that disagrees
 * even with the factor applied is DIM-001's (typed overrides, DIMPOST, edited blocks).
 */
export const dimensionDisplayRule: FrameRule<ParamsOf<'dimension_display'>> = (item, params, { frame, evidence, locale, annotationLocale }) =>
  evidence.dimensions.flatMap((dim) => {
    const factor = dim.display?.linearFactor ?? 1;
    if (dim.position === null || dim.blockText === null || Math.abs(factor - 1) < 1e-9 || dim.dimType?.startsWith('angular')) return [];
    if (overrideValue(dim.textOverride) !== undefined) return [];
    const shown = statedValue(dim.blockText);
    const measured = dim.measured ?? (dim.measurement !== null && dim.measurement >= 0 ? dim.measurement : null);
    if (!shown || measured === null || measured === 0) return [];
    const tolerance = 0.5 * 10 ** -shown.decimals + shown.value * params.relativeTolerance;
    const geometry = Math.abs(measured);
    if (Math.abs(shown.value - geometry) <= tolerance || Math.abs(shown.value - geometry * factor) > tolerance * Math.max(1, factor) || plausibleViewFactor(factor)) return [];
    return [
      draftFor(item, frame.id, {
        message: say(
          locale,
          `尺寸显示为“${dim.blockText}”，但几何实测为 ${fmt(geometry)}：测量比例因子 DIMLFAC=${fmt(factor)} 不是视图比例的倒数，请检查标注样式。`,
          `The dimension shows "${dim.blockText}" but the geometry measures ${fmt(geometry)}: the measurement factor DIMLFAC ${fmt(factor)} undoes no view scale; check the dimension style.`,
        ),
        evidenceRefs: ['tool:get_dimensions', `entity:${dim.handle}`],
        location: { kind: 'point', point: dim.position },
        handles: [dim.handle],
        annotationText: say(annotationLocale, `显示 ${dim.blockText}，实测 ${fmt(geometry)}（DIMLFAC=${fmt(factor)}）`, `Shows ${dim.blockText}, measures ${fmt(geometry)} (DIMLFAC ${fmt(factor)})`),
      }),
    ];
  });

/**
 * DIM-004 (GB/T 4458.4 with GB/T 14691): dimension text at paper scale on the lettering series and
 * not below the minimum; one finding per shown height, so a wrong style is one finding, not fifty.
 */
export const dimensionTextHeightRule: FrameRule<ParamsOf<'dimension_text_height'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  if (!paperScaleKnown(frame)) return [];
  const factor = frameUnitsPerPaperMm(frame);
  const off = new Map<string, DimensionItem[]>();
  for (const dim of evidence.dimensions) {
    if (dim.blockTextHeight === undefined || dim.position === null) continue;
    const paper = dim.blockTextHeight / factor;
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
      annotationText: say(annotationLocale, `尺寸字高 ${paper} mm，建议 ${fmt(nearest)}`, `Dimension text ${paper} mm; use ${fmt(nearest)}`),
    });
  });
};

const CURVES = new Set(['CIRCLE', 'ARC', 'ELLIPSE', 'SPLINE']);
const PART_GEOMETRY = new Set([...CURVES, 'LINE', 'LWPOLYLINE', 'POLYLINE']);

/**
 * DIM-003: a frame that holds part geometry (at least minGeometry lines/curves, some of them
 * curves, outside the title block and off border/title layers) but not one dimension.
 */
export const frameWithoutDimensionsRule: FrameRule<ParamsOf<'frame_without_dimensions'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
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
      annotationText: say(annotationLocale, '本图未标注尺寸', 'No dimensions on this sheet'),
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

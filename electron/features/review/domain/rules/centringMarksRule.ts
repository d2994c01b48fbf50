import type { RuleParams } from '../checklist';
import type { EntitySummary } from '../evidence';
import { bboxHeight, bboxWidth, pointInBox, type BBox, type Point } from '../geometry';
import { draftFor, say, type FrameRule, type ReviewLocale } from './context';

type ParamsOf<R extends RuleParams['rule']> = Extract<RuleParams, { rule: R }>;

/** Lines and polylines can be centring marks (GB/T 14689 draws them as short thick lines). */
const MARK_TYPES = new Set(['LINE', 'LWPOLYLINE', 'POLYLINE']);
/** A mark is a straight stroke across the side: at most this wide along it, on paper (mm). */
const MARK_THICKNESS_MM = 1;
/** It must reach at least this far past the inner border into the frame, and start this far outside it (mm). */
const MARK_OVERLAP_MM = 1;
/** Pieces of one mark may leave a gap this small between them (mm). */
const MARK_JOIN_MM = 0.5;

type Side = 'bottom' | 'top' | 'left' | 'right';
const SIDES: readonly Side[] = ['bottom', 'right', 'top', 'left'];
const SIDE_NAMES: Record<Side, { zh: string; en: string }> = { bottom: { zh: '下', en: 'bottom' }, top: { zh: '上', en: 'top' }, left: { zh: '左', en: 'left' }, right: { zh: '右', en: 'right' } };

/**
 * A box seen from one side of the sheet: `depth` inward from the trimmed edge, `along` the edge.
 * Every side becomes the bottom one, so one test covers all four.
 */
function fromSide(side: Side, sheet: BBox, b: BBox): { depthMin: number; depthMax: number; alongMin: number; alongMax: number } {
  switch (side) {
    case 'bottom':
      return { depthMin: b.minY - sheet.minY, depthMax: b.maxY - sheet.minY, alongMin: b.minX, alongMax: b.maxX };
    case 'top':
      return { depthMin: sheet.maxY - b.maxY, depthMax: sheet.maxY - b.minY, alongMin: b.minX, alongMax: b.maxX };
    case 'left':
      return { depthMin: b.minX - sheet.minX, depthMax: b.maxX - sheet.minX, alongMin: b.minY, alongMax: b.maxY };
    case 'right':
      return { depthMin: sheet.maxX - b.maxX, depthMax: sheet.maxX - b.minX, alongMin: b.minY, alongMax: b.maxY };
  }
}

/** Where a side's mark belongs: the middle of the side, on the inner border. */
function markPoint(side: Side, sheet: BBox, border: BBox): Point {
  const midX = (sheet.minX + sheet.maxX) / 2;
  const midY = (sheet.minY + sheet.maxY) / 2;
  return side === 'bottom' ? { x: midX, y: border.minY } : side === 'top' ? { x: midX, y: border.maxY } : side === 'left' ? { x: border.minX, y: midY } : { x: border.maxX, y: midY };
}

const names = (locale: ReviewLocale, sides: readonly Side[]): string => sides.map((s) => (locale === 'zh-CN' ? SIDE_NAMES[s].zh : SIDE_NAMES[s].en)).join(locale === 'zh-CN' ? '、' : ', ');

/**
 * SHT-002 (GB/T 14689 对中符号): a GB sheet carries a centring mark in the middle of each of its
 * four sides — a short thick line (≥ minLineWeightMm) from the trimmed edge across the inner
 * border, at most maxInsideMm into the frame. Judged only on frames whose trimmed sheet was
 * recognised as one of `formats` with a margin between trim and border (otherwise where the
 * marks belong is unknown), and with `chineseSheetsOnly`, only on sheets whose texts are
 * Chinese: ISO and company sheets are not held to the GB convention. One finding per frame
 * names the sides without a mark and those whose mark is drawn too thin.
 */
export const centringMarksRule: FrameRule<ParamsOf<'centring_marks'>> = (item, params, { frame, evidence, locale, annotationLocale }) => {
  if (!params.enabled || frame.origin !== 'detected' || frame.extentsOnly || !frame.sheet) return [];
  if (!frame.sheetName || !params.formats.some((f) => f.toUpperCase() === frame.sheetName!.toUpperCase())) return [];
  const sheet = frame.sheet.box;
  const border = frame.bbox;
  if (params.chineseSheetsOnly && !evidence.texts.some((t) => /[\u3400-\u9fff]/.test(t.text) && pointInBox(t.position, sheet))) return [];
  const mm = Math.max(bboxWidth(sheet), bboxHeight(sheet)) / Math.max(frame.sheet.widthMm, frame.sheet.heightMm);
  const weights = new Map((evidence.layers ?? []).map((l) => [l.name.toUpperCase(), l.lineWeight]));
  // A mark straddles the border: its centre may lie in the frame or in the margin.
  const candidates = [...evidence.entities, ...(evidence.marginEntities ?? [])].filter((e): e is EntitySummary & { bbox: BBox } => MARK_TYPES.has(e.type) && e.bbox !== undefined);
  const missing: Side[] = [];
  const thin: Side[] = [];
  for (const side of SIDES) {
    const borderDepth = fromSide(side, sheet, border).depthMin;
    // No margin between trim and border on this side: nothing says where a mark would start.
    if (borderDepth < MARK_OVERLAP_MM * 2 * mm) return [];
    const middle = side === 'bottom' || side === 'top' ? (sheet.minX + sheet.maxX) / 2 : (sheet.minY + sheet.maxY) / 2;
    // Strokes on the side's middle line, short enough to be a mark (not an axis or a border).
    const strokes = candidates
      .map((e) => ({ e, v: fromSide(side, sheet, e.bbox) }))
      .filter(({ v }) => v.alongMax - v.alongMin <= MARK_THICKNESS_MM * mm && Math.abs((v.alongMin + v.alongMax) / 2 - middle) <= params.offsetToleranceMm * mm && v.depthMin >= -MARK_OVERLAP_MM * mm && v.depthMax <= borderDepth + params.maxInsideMm * mm)
      .sort((a, b) => a.v.depthMin - b.v.depthMin);
    // A mark may be drawn in pieces that meet at the border (QCAD's ISO templates do): join touching strokes.
    const marks: EntitySummary[] = [];
    let run: { from: number; to: number; parts: EntitySummary[] } | null = null;
    const close = (): void => {
      if (run && run.from <= borderDepth - MARK_OVERLAP_MM * mm && run.to >= borderDepth + MARK_OVERLAP_MM * mm) marks.push(...run.parts);
    };
    for (const { e, v } of strokes) {
      if (run && v.depthMin <= run.to + MARK_JOIN_MM * mm) {
        run.to = Math.max(run.to, v.depthMax);
        run.parts.push(e);
      } else {
        close();
        run = { from: v.depthMin, to: v.depthMax, parts: [e] };
      }
    }
    close();
    if (marks.length === 0) missing.push(side);
    // The layer's lineweight is what prints. Unset (negative) is not judged, nor 0: QCAD writes 0
    // on every layer of its templates, so 0 says nothing about the pen.
    else if (marks.every((e) => (weights.get(e.layer.toUpperCase()) ?? -1) > 0 && weights.get(e.layer.toUpperCase())! < params.minLineWeightMm * 100)) thin.push(side);
  }
  if (missing.length === 0 && thin.length === 0) return [];
  const parts = [
    ...(missing.length > 0 ? [say(locale, `${names(locale, missing)}边缺少对中符号`, `no centring mark on the ${names(locale, missing)} side(s)`)] : []),
    ...(thin.length > 0 ? [say(locale, `${names(locale, thin)}边的对中符号线宽小于 ${params.minLineWeightMm} mm`, `the centring mark on the ${names(locale, thin)} side(s) is thinner than ${params.minLineWeightMm} mm`)] : []),
  ];
  const first = missing[0] ?? thin[0]!;
  return [
    draftFor(item, frame.id, {
      message: say(locale, `图幅 ${frame.sheetName}：${parts.join('；')}（GB/T 14689：四边中点处画对中符号，粗实线，自纸边伸入图框约 5 mm）。`, `Sheet ${frame.sheetName}: ${parts.join('; ')} (GB/T 14689: a thick line from the trimmed edge about 5 mm into the frame, in the middle of each side).`),
      evidenceRefs: ['tool:find_frames', 'tool:get_entities'],
      location: { kind: 'point', point: markPoint(first, sheet, border) },
      handles: [],
      annotationText: say(annotationLocale, missing.length > 0 ? `缺对中符号（${names(annotationLocale, missing)}）` : '对中符号线宽不足', missing.length > 0 ? `Centring mark missing (${names(annotationLocale, missing)})` : 'Centring mark too thin'),
    }),
  ];
};

import type { DrawingEvidence, FrameEvidence } from '../evidence';
import type { Frame } from '../frame';
import type { FindingDraft } from '../finding';
import type { RuleChecklistItem } from '../checklist';
import { bboxHeight, bboxWidth } from '../geometry';
import { unitsPerPaperMmFromScaleText } from '../frame';

export type ReviewLocale = 'zh-CN' | 'en';

/** What a frame-level rule sees. */
export interface FrameRuleContext {
  frame: Frame;
  evidence: FrameEvidence;
  /** Language of the report and messages (the run's). */
  locale: ReviewLocale;
  /** Language of the annotation texts written into the drawing (the drawing's own). */
  annotationLocale: ReviewLocale;
}

/** What a drawing-level rule sees. */
export interface DrawingRuleContext {
  frames: readonly Frame[];
  drawing: DrawingEvidence;
  locale: ReviewLocale;
  /** See FrameRuleContext.annotationLocale. */
  annotationLocale: ReviewLocale;
}

export type FrameRule<P> = (item: RuleChecklistItem, params: P, context: FrameRuleContext) => FindingDraft[];
export type DrawingRule<P> = (item: RuleChecklistItem, params: P, context: DrawingRuleContext) => FindingDraft[];

/** Picks the message in the run's language. */
export const say = (locale: ReviewLocale, zh: string, en: string): string => (locale === 'zh-CN' ? zh : en);

/** A finding draft with the item's identity filled in. */
export function draftFor(
  item: RuleChecklistItem,
  frameId: string | null,
  fields: Omit<FindingDraft, 'checklistItemId' | 'severity' | 'source' | 'frameId'>,
): FindingDraft {
  return { ...fields, frameId, checklistItemId: item.id, severity: item.severity, source: 'rule' };
}

/** ISO 216 aspect ratio shared by every A size. */
const A_SERIES_ASPECT = Math.SQRT2;
const A_SERIES_SHORT_EDGES_MM: Record<string, number> = { A0: 841, A1: 594, A2: 420, A3: 297, A4: 210 };

/**
 * Drawing units per paper mm for a frame. In order: the backend's value; the frame's short
 * edge over its recognised sheet's short edge (the frame is the paper); the title-block scale
 * when it makes the frame an A size; the preferred scale factor closest to 1 that makes it an
 * A size (A sizes share one shape, so geometry alone is ambiguous); the scale text; else 1.
 */
export function frameUnitsPerPaperMm(frame: Frame): number {
  if (frame.unitsPerPaperMm !== null) return frame.unitsPerPaperMm;
  const fromText = frame.titleBlock.scale ? unitsPerPaperMmFromScaleText(frame.titleBlock.scale) : undefined;
  if (frame.origin !== 'detected') return fromText ?? 1;
  const short = Math.min(bboxWidth(frame.bbox), bboxHeight(frame.bbox));
  const long = Math.max(bboxWidth(frame.bbox), bboxHeight(frame.bbox));
  const sheetEdge = frame.sheetName ? A_SERIES_SHORT_EDGES_MM[frame.sheetName.toUpperCase()] : undefined;
  if (sheetEdge !== undefined && short > 0) return short / sheetEdge;
  if (short <= 0 || Math.abs(long / short - A_SERIES_ASPECT) > 0.01) return fromText ?? 1;
  const factors = Object.values(A_SERIES_SHORT_EDGES_MM).map((edge) => short / edge);
  if (fromText !== undefined && factors.some((f) => Math.abs(f - fromText) / fromText < 0.005)) return fromText;
  const preferred = factors.filter(isPreferredScaleFactor).sort((a, b) => Math.abs(Math.log(a)) - Math.abs(Math.log(b)));
  return preferred[0] ?? fromText ?? 1;
}

/** GB/T 14690 / ISO 5455 preferred scale factors (both reduction and enlargement), within 0.5 %. */
export function isPreferredScaleFactor(factor: number): boolean {
  const mantissas = [1, 1.5, 2, 2.5, 3, 4, 5, 6];
  for (let exponent = -3; exponent <= 4; exponent++) {
    for (const m of mantissas) {
      const candidate = m * 10 ** exponent;
      if (Math.abs(factor - candidate) / candidate < 0.005) return true;
      if (Math.abs(factor - 1 / candidate) * candidate < 0.005) return true;
    }
  }
  return false;
}

/** Chinese names of DXF entity types, as AutoCAD's Chinese edition calls them. */
const ENTITY_TYPE_ZH: Record<string, string> = {
  LINE: '直线', XLINE: '构造线', RAY: '射线', LWPOLYLINE: '多段线', POLYLINE: '多段线', CIRCLE: '圆', ARC: '圆弧', ELLIPSE: '椭圆',
  SPLINE: '样条曲线', POINT: '点', TEXT: '单行文字', MTEXT: '多行文字', ATTRIB: '属性', ATTDEF: '属性定义', INSERT: '块参照',
  DIMENSION: '尺寸标注', ARC_DIMENSION: '弧长标注', LEADER: '引线', MLEADER: '多重引线', MULTILEADER: '多重引线', HATCH: '图案填充',
  SOLID: '二维填充', TRACE: '宽线', '3DFACE': '三维面', VIEWPORT: '视口', IMAGE: '光栅图像', WIPEOUT: '区域覆盖', TABLE: '表格',
};

/** An entity type in the run's language (unknown types keep their DXF name). */
export const typeName = (locale: ReviewLocale, type: string): string => (locale === 'zh-CN' ? (ENTITY_TYPE_ZH[type.toUpperCase()] ?? `${type} 图元`) : type);

/** Han characters mark a Chinese drawing: its annotations are written in Chinese, otherwise in English. */
export function drawingLocale(texts: readonly { text: string }[]): ReviewLocale {
  return texts.some((t) => /[\u3400-\u9fff]/.test(t.text)) ? 'zh-CN' : 'en';
}

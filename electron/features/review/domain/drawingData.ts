import type { DetectorHit, DimensionItem, DrawingEvidence, DuplicateGroup, EntitySummary, FrameEvidence, LayerItem, TextItem } from './evidence';
import type { Frame } from './frame';
import { bboxCenter, boxesIntersect, pointInBox, type BBox } from './geometry';
import { sha256Hex } from './sha256';
import { drawingListIssues, isDrawingListFrame, readDrawingList, type DrawingListEvidence } from './drawingList';
import { modelOwners, sheetFrameEvidence, type SheetData } from './sheetEvidence';
import { sheetOf } from './sheet';

/** Everything read drawing-wide once per run; frames take their share by location. */
export interface DrawingData {
  entities: EntitySummary[];
  entitiesTruncated: boolean;
  texts: TextItem[];
  dimensions: DimensionItem[];
  zeroLength: DetectorHit[];
  duplicates: DuplicateGroup[];
  /** Paper layouts that hold frames: what each sheet shows (read with the viewports' content). */
  sheets?: Record<string, SheetData>;
  layers: LayerItem[];
  /** What the backend repaired or skipped while loading a damaged file (empty for a clean one). */
  problems: DrawingProblem[];
}

export interface DrawingProblem {
  kind: string;
  message: string;
}

/** Our own annotation layer: never evidence, never part of the fingerprint. */
export const AI_REVIEW_LAYER = 'AI_REVIEW';

/**
 * Evidence of one frame: entities whose box centre lies in the frame, texts/dimensions/detector
 * hits located in it. AI_REVIEW content is excluded so written annotations never become findings.
 * A frame on a paper layout takes what its sheet shows (paper entities and model space through
 * the viewports, each model entity reviewed by one frame only: pass all `frames` of the run).
 */
export function frameEvidenceFrom(data: DrawingData, frame: Frame, frames: readonly Frame[] = [frame]): Omit<FrameEvidence, 'screenshots' | 'toolCalls'> {
  const inFrame = (p: { x: number; y: number }): boolean => pointInBox(p, frame.bbox);
  const ours = (layer: string): boolean => layer === AI_REVIEW_LAYER;
  if (sheetOf(frame).space === 'paper') {
    // A paper sheet's evidence is what it plots; the drawing-wide listing is model space in model
    // coordinates and never stands in for it (a backend that cannot read the sheet leaves it empty).
    const sheet = data.sheets?.[frame.layout] ?? { entities: [], texts: [], dimensions: [] };
    const detectors = { zeroLength: [...data.zeroLength, ...(sheet.zeroLength ?? [])], duplicates: [...data.duplicates, ...(sheet.duplicates ?? [])] };
    const shown = sheetFrameEvidence(sheet, frame, modelOwners(data.entities, data.sheets ?? {}, frames), ours, detectors);
    // The layout's own strokes between its trimmed sheet and the border (centring marks) are the frame's margin.
    const paperBox = frame.sheet?.box;
    const margin = paperBox ? sheet.entities.filter((e) => e.space !== 'model' && !ours(e.layer) && e.bbox !== undefined && pointInBox(bboxCenter(e.bbox), paperBox) && !inFrame(bboxCenter(e.bbox))) : [];
    return { frameId: frame.id, ...shown, ...(margin.length > 0 ? { marginEntities: margin } : {}), entitiesTruncated: data.entitiesTruncated, layers: data.layers };
  }
  const sheetBox = frame.sheet?.box;
  return {
    frameId: frame.id,
    entities: data.entities.filter((e) => !ours(e.layer) && e.bbox !== undefined && inFrame(bboxCenter(e.bbox))),
    ...(sheetBox ? { marginEntities: data.entities.filter((e) => !ours(e.layer) && e.bbox !== undefined && pointInBox(bboxCenter(e.bbox), sheetBox) && !inFrame(bboxCenter(e.bbox))) } : {}),
    entitiesTruncated: data.entitiesTruncated,
    texts: data.texts.filter((t) => !ours(t.layer) && inFrame(t.position)),
    dimensions: data.dimensions.filter((d) => !ours(d.layer) && d.position !== null && inFrame(d.position)),
    zeroLength: data.zeroLength.filter((hit) => inFrame(hit.location)),
    duplicates: data.duplicates.filter((group) => inFrame(group.location)),
    layers: data.layers,
  };
}

/** Every text the drawing shows: model space and each paper sheet's own (what its language is judged by). */
export function drawingTexts(data: DrawingData): TextItem[] {
  return [...data.texts, ...Object.values(data.sheets ?? {}).flatMap((sheet) => sheet.texts)];
}

/** The paper a frame stands for: the trimmed sheet when known (zone labels and centring marks sit between it and the border). */
export function frameSheetBox(frame: Frame): BBox {
  return frame.sheet?.box ?? frame.bbox;
}

/** Zone labels (GB/T 14689 分区代号, ISO 5457 grid references): one letter or a 1–2 digit number. */
const ZONE_LABEL = /^([A-Z]|\d{1,2})$/;
/** How far outside a frame's sheet a zone label may sit, as a share of the sheet's short side. */
const ZONE_BAND = 0.06;

function isZoneLabel(text: TextItem, frames: readonly Frame[]): boolean {
  if (!ZONE_LABEL.test(text.text.trim())) return false;
  return frames.some((f) => {
    const box = frameSheetBox(f);
    const band = Math.min(box.maxX - box.minX, box.maxY - box.minY) * ZONE_BAND;
    return pointInBox(text.position, { minX: box.minX - band, minY: box.minY - band, maxX: box.maxX + band, maxY: box.maxY + band });
  });
}

/**
 * Model-space entities that touch no frame's sheet (block-internal and AI_REVIEW content
 * excluded). Zone labels along a border are part of the frame, not strays, even when drawn just
 * outside it; an entity a paper-layout frame's sheet shows through a viewport is inside that frame.
 */
export function entitiesOutsideFrames(data: DrawingData, frames: readonly Frame[]): EntitySummary[] {
  // The drawing-wide listing is model space. Model-space frames say what lies outside them by box;
  // a paper-layout frame is in paper coordinates, so it can only say which model entities its
  // sheet shows through viewports — and only when the backend tells (entities carry "space").
  const knowsSheet = (f: Frame): boolean => data.sheets?.[f.layout]?.entities.some((e) => e.space !== undefined) === true;
  const modelFrames = frames.filter((f) => f.layout.toUpperCase() === 'MODEL');
  const sheetFrames = frames.filter((f) => f.layout.toUpperCase() !== 'MODEL' && knowsSheet(f));
  if (modelFrames.length === 0 && sheetFrames.length === 0) return [];
  const onSheets = new Set<string>();
  for (const frame of sheetFrames) {
    for (const e of data.sheets?.[frame.layout]?.entities ?? []) if (e.space === 'model' && e.bbox && boxesIntersect(e.bbox, frameSheetBox(frame))) onSheets.add(`${e.type}|${e.handle}`);
  }
  const zoneLabels = new Set(data.texts.filter((t) => isZoneLabel(t, modelFrames)).map((t) => t.handle));
  return data.entities.filter(
    (e) => e.layer !== AI_REVIEW_LAYER && e.bbox !== undefined && !zoneLabels.has(e.handle) && !onSheets.has(`${e.type}|${e.handle}`) && !modelFrames.some((f) => boxesIntersect(e.bbox!, frameSheetBox(f))),
  );
}

/**
 * Digest of the drawing's content: sorted handle/type/layer of every entity except our own
 * AI_REVIEW layer, so writing annotations (or re-saving through the DXF backend, which keeps
 * handles) leaves it unchanged and a re-run produces the same finding ids.
 */
export function drawingFingerprint(data: DrawingData, frames: readonly Frame[]): string {
  const lines = data.entities.filter((e) => e.layer !== AI_REVIEW_LAYER).map((e) => `${e.handle}|${e.type}|${e.layer}`);
  lines.sort();
  const frameKeys = frames.map((f) => `${f.id}@${Math.round(f.bbox.minX)},${Math.round(f.bbox.minY)}`).sort();
  return sha256Hex(`${lines.join('\n')}\n--\n${frameKeys.join('\n')}`);
}

/**
 * Drawing-level evidence of a run over `frames`. "Outside every frame" is judged against all
 * frames the drawing has (`allFrames`), so reviewing a few with --frames does not report the
 * others' content as strays.
 */
export function drawingEvidence(data: DrawingData, frames: readonly Frame[], allFrames: readonly Frame[] = frames): DrawingEvidence {
  const outsideFrames = entitiesOutsideFrames(data, allFrames);
  // Detector hits on entities no sheet shows: frames never see them, the drawing-level rules do.
  const outside = new Set(outsideFrames.map((e) => `${e.type}|${e.handle}`));
  const outsideZeroLength = data.zeroLength.filter((hit) => outside.has(`${hit.type}|${hit.handle}`));
  const outsideDuplicates = data.duplicates.filter((group) => outside.has(`${group.type}|${group.handles[0]}`));
  return {
    fingerprint: drawingFingerprint(data, frames),
    outsideFrames,
    ...(outsideZeroLength.length > 0 ? { outsideZeroLength } : {}),
    ...(outsideDuplicates.length > 0 ? { outsideDuplicates } : {}),
    entitiesTruncated: data.entitiesTruncated,
    layers: data.layers,
    problems: data.problems,
    drawingLists: drawingLists(data, frames, allFrames),
  };
}

/**
 * The frames of the run that are a 图纸目录, with their table read from the texts on them (title
 * block excluded) and what it disagrees with among all the drawing's sheets (a run over a few
 * frames does not call the others missing).
 */
function drawingLists(data: DrawingData, frames: readonly Frame[], allFrames: readonly Frame[]): DrawingListEvidence[] {
  return frames.flatMap((frame) => {
    if (frame.origin !== 'detected') return [];
    const source = frame.layout.toUpperCase() === 'MODEL' ? data.texts : (data.sheets?.[frame.layout]?.texts ?? []);
    const texts = source.filter((t) => t.layer !== AI_REVIEW_LAYER && pointInBox(t.position, frame.bbox));
    if (!isDrawingListFrame(frame, texts)) return [];
    const rows = readDrawingList(texts, frame.titleBlockBox);
    return [{ frameId: frame.id, rows, issues: drawingListIssues({ frameId: frame.id, rows }, allFrames) }];
  });
}

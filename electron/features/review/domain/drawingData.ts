import type { DetectorHit, DimensionItem, DrawingEvidence, DuplicateGroup, EntitySummary, FrameEvidence, LayerItem, TextItem } from './evidence';
import type { Frame } from './frame';
import { bboxCenter, boxesIntersect, pointInBox, type BBox } from './geometry';
import { sha256Hex } from './sha256';

/** Everything read drawing-wide once per run; frames take their share by location. */
export interface DrawingData {
  entities: EntitySummary[];
  entitiesTruncated: boolean;
  texts: TextItem[];
  dimensions: DimensionItem[];
  zeroLength: DetectorHit[];
  duplicates: DuplicateGroup[];
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
 */
export function frameEvidenceFrom(data: DrawingData, frame: Frame): Omit<FrameEvidence, 'screenshots' | 'toolCalls'> {
  const inFrame = (p: { x: number; y: number }): boolean => pointInBox(p, frame.bbox);
  const ours = (layer: string): boolean => layer === AI_REVIEW_LAYER;
  return {
    frameId: frame.id,
    entities: data.entities.filter((e) => !ours(e.layer) && e.bbox !== undefined && inFrame(bboxCenter(e.bbox))),
    entitiesTruncated: data.entitiesTruncated,
    texts: data.texts.filter((t) => !ours(t.layer) && inFrame(t.position)),
    dimensions: data.dimensions.filter((d) => !ours(d.layer) && d.position !== null && inFrame(d.position)),
    zeroLength: data.zeroLength.filter((hit) => inFrame(hit.location)),
    duplicates: data.duplicates.filter((group) => inFrame(group.location)),
    layers: data.layers,
  };
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
 * Entities that touch no frame's sheet (block-internal and AI_REVIEW content excluded). Zone
 * labels along a border are part of the frame, not strays, even when drawn just outside it.
 */
export function entitiesOutsideFrames(data: DrawingData, allFrames: readonly Frame[]): EntitySummary[] {
  // The drawing-wide listing is model space: paper-layout frames are in paper coordinates and show
  // model space through viewports, so only model-space frames can say what lies outside them.
  const frames = allFrames.filter((f) => f.layout.toUpperCase() === 'MODEL');
  if (frames.length === 0) return [];
  const zoneLabels = new Set(data.texts.filter((t) => isZoneLabel(t, frames)).map((t) => t.handle));
  return data.entities.filter((e) => e.layer !== AI_REVIEW_LAYER && e.bbox !== undefined && !zoneLabels.has(e.handle) && !frames.some((f) => boxesIntersect(e.bbox!, frameSheetBox(f))));
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
  return { fingerprint: drawingFingerprint(data, frames), outsideFrames: entitiesOutsideFrames(data, allFrames), entitiesTruncated: data.entitiesTruncated, layers: data.layers, problems: data.problems };
}

import type { DetectorHit, DimensionItem, DrawingEvidence, DuplicateGroup, EntitySummary, FrameEvidence, TextItem } from './evidence';
import type { Frame } from './frame';
import { bboxCenter, boxesIntersect, pointInBox } from './geometry';
import { sha256Hex } from './sha256';

/** Everything read drawing-wide once per run; frames take their share by location. */
export interface DrawingData {
  entities: EntitySummary[];
  entitiesTruncated: boolean;
  texts: TextItem[];
  dimensions: DimensionItem[];
  zeroLength: DetectorHit[];
  duplicates: DuplicateGroup[];
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
  };
}

/** Entities that touch no frame at all (block-internal and AI_REVIEW content excluded). */
export function entitiesOutsideFrames(data: DrawingData, frames: readonly Frame[]): EntitySummary[] {
  return data.entities.filter((e) => e.layer !== AI_REVIEW_LAYER && e.bbox !== undefined && !frames.some((f) => boxesIntersect(e.bbox!, f.bbox)));
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

export function drawingEvidence(data: DrawingData, frames: readonly Frame[]): DrawingEvidence {
  return { fingerprint: drawingFingerprint(data, frames), outsideFrames: entitiesOutsideFrames(data, frames), entitiesTruncated: data.entitiesTruncated };
}

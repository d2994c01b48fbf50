import { z } from 'zod';
import { bboxSchema, bboxCenter, pointSchema, type BBox, type Point } from './geometry';
import { severitySchema, type Severity } from './checklist';
import { sha256Hex } from './sha256';

/** Where a finding is, in drawing coordinates. */
export const findingLocationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('point'), point: pointSchema }).strict(),
  z.object({ kind: z.literal('bbox'), bbox: bboxSchema }).strict(),
]);
export type FindingLocation = z.infer<typeof findingLocationSchema>;

/** A grouped finding lists at most this many places (its `count` still says how many there are). */
export const MAX_GROUP_LOCATIONS = 500;

/** The leader the reviewer proposes to write: arrow tip at `anchor`, text at `textAt`. */
export const proposedAnnotationSchema = z
  .object({ text: z.string().min(1).max(500), anchor: pointSchema, textAt: pointSchema })
  .strict();
export type ProposedAnnotation = z.infer<typeof proposedAnnotationSchema>;

export const findingSchema = z
  .object({
    /** Stable id: sha256 of drawing fingerprint + frame + checklist item + location key. */
    id: z.string().regex(/^[0-9a-f]{64}$/),
    /** First 8 hex digits, written into the annotation text ("[AI-R 1a2b3c4d]"). */
    shortId: z.string().regex(/^[0-9a-f]{8}$/),
    /** Frame id, or null for drawing-level findings (e.g. entities outside every frame). */
    frameId: z.string().min(1).max(100).nullable(),
    checklistItemId: z.string().min(1).max(20),
    severity: severitySchema,
    source: z.enum(['rule', 'llm']),
    message: z.string().min(1).max(2000),
    /** "entity:<handle>", "tool:<name>", "screenshot:<id>", "titleblock:<field>". */
    evidenceRefs: z.array(z.string().min(1).max(200)).max(200),
    location: findingLocationSchema,
    /**
     * A grouped finding (one rule, one sheet, several places): how many places it stands for, and
     * each place (the first is `location`). Absent on a finding about one place (report schema 1).
     */
    count: z.number().int().min(2).optional(),
    locations: z.array(findingLocationSchema).min(2).max(MAX_GROUP_LOCATIONS).optional(),
    proposedAnnotation: proposedAnnotationSchema,
    /**
     * An AI finding no CAD evidence near its location confirms (after one re-ask): shown apart,
     * never written as an annotation until the user promotes it. Absent on confirmed findings.
     */
    hypothesis: z.literal(true).optional(),
  })
  .strict();
export type Finding = z.infer<typeof findingSchema>;

export function locationPoint(location: FindingLocation): Point {
  return location.kind === 'point' ? location.point : bboxCenter(location.bbox);
}

/** Rounds coordinates so floating noise from a re-read drawing does not change ids. */
function locationKey(location: FindingLocation): string {
  const r = (n: number): string => (Math.round(n * 1000) / 1000).toFixed(3);
  if (location.kind === 'point') return `p:${r(location.point.x)},${r(location.point.y)}`;
  const b: BBox = location.bbox;
  return `b:${r(b.minX)},${r(b.minY)},${r(b.maxX)},${r(b.maxY)}`;
}

/**
 * Stable finding id. When the finding is about entities, their sorted handles identify it (a
 * re-run finds the same handles); otherwise the rounded location does. A `discriminator` keeps
 * two findings of one item at one spot apart (e.g. two title-block fields).
 */
export function findingId(input: {
  drawingFingerprint: string;
  frameId: string | null;
  checklistItemId: string;
  handles: readonly string[];
  location: FindingLocation;
  discriminator?: string;
}): string {
  const anchor = input.handles.length > 0 ? `h:${[...input.handles].sort().join(',')}` : locationKey(input.location);
  const key = [input.drawingFingerprint, input.frameId ?? '<drawing>', input.checklistItemId, anchor, input.discriminator ?? ''].join('|');
  return sha256Hex(key);
}

/** Visible text for a leader tool that cannot store the id elsewhere: the short id first, so a re-run can recognise it. */
export function annotationText(shortId: string, text: string): string {
  return `[AI-R ${shortId}] ${text}`;
}

/** Extracts short ids of our annotations from texts read back from the AI_REVIEW layer. */
export function shortIdsInText(text: string): string[] {
  return [...text.matchAll(/\[AI-R ([0-9a-f]{8})\]/g)].map((m) => m[1]!);
}

export interface FindingDraft {
  frameId: string | null;
  checklistItemId: string;
  severity: Severity;
  source: 'rule' | 'llm';
  message: string;
  evidenceRefs: string[];
  location: FindingLocation;
  handles: string[];
  annotationText: string;
  discriminator?: string;
  /** See Finding.hypothesis. */
  hypothesis?: true;
  /** See Finding.count / Finding.locations (set by groupRuleDrafts). */
  count?: number;
  locations?: FindingLocation[];
}

/**
 * Completes a draft: stable id, short id, and a leader whose arrow tip is at the finding and
 * whose text sits up and to the right by `offset` drawing units (so it does not cover the spot).
 */
export function completeFinding(draft: FindingDraft, drawingFingerprint: string, offset: number): Finding {
  const id = findingId({ drawingFingerprint, ...draft });
  const anchor = locationPoint(draft.location);
  return {
    id,
    shortId: id.slice(0, 8),
    frameId: draft.frameId,
    checklistItemId: draft.checklistItemId,
    severity: draft.severity,
    source: draft.source,
    message: draft.message,
    evidenceRefs: draft.evidenceRefs,
    location: draft.location,
    ...(draft.count !== undefined && draft.locations ? { count: draft.count, locations: draft.locations } : {}),
    proposedAnnotation: { text: draft.annotationText, anchor, textAt: { x: anchor.x + offset, y: anchor.y + offset } },
    ...(draft.hypothesis ? { hypothesis: true as const } : {}),
  };
}

import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { pointSchema, type Point } from './geometry';
import { annotationText, type Finding } from './finding';
import { canonicalJson, sha256Hex } from './sha256';

/** Life cycle of a proposed annotation. `written` is terminal. */
export const annotationStateSchema = z.enum(['proposed', 'approved', 'edited', 'rejected', 'written']);
export type AnnotationState = z.infer<typeof annotationStateSchema>;

export const annotationSchema = z
  .object({
    findingId: z.string().regex(/^[0-9a-f]{64}$/),
    shortId: z.string().regex(/^[0-9a-f]{8}$/),
    state: annotationStateSchema,
    /** Annotation text without the id prefix (the writer adds "[AI-R <shortId>]"). */
    text: z.string().min(1).max(500),
    /** Arrow tip, at the finding. */
    anchor: pointSchema,
    textAt: pointSchema,
    /** Text height in drawing units (3.5 mm on paper times the frame scale). */
    textHeight: z.number().positive(),
    /** Paper layout the note is written into, at sheet coordinates (a paper sheet's finding); absent for model space. */
    layout: z.string().min(1).max(255).optional(),
    /** Hash of the exact write payload the user approved; null when not approved. */
    approvedPayloadHash: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
  })
  .strict();
export type Annotation = z.infer<typeof annotationSchema>;

/**
 * The exact tool call the writer makes for an annotation: the visible text is the note alone and
 * the short id travels as `reviewId` (kept in the text's XDATA, so a re-run recognises it).
 */
export interface LeaderPayload {
  tool: 'add_leader_annotation';
  /** Points as [x, y] pairs, the arrow tip first (the cad_mcp_frame and DXF backend convention). */
  args: { points: [[number, number], [number, number]]; text: string; height: number; reviewId?: string; layout?: string };
}

export function leaderPayload(annotation: Annotation): LeaderPayload {
  return {
    tool: 'add_leader_annotation',
    args: {
      points: [[annotation.anchor.x, annotation.anchor.y], [annotation.textAt.x, annotation.textAt.y]],
      text: annotation.text,
      height: annotation.textHeight,
      reviewId: annotation.shortId,
      // Only paper sheets name their layout, so a model note's payload (and its approval hash) is as before.
      ...(annotation.layout ? { layout: annotation.layout } : {}),
    },
  };
}

/**
 * The same call for a leader tool that cannot keep an id out of sight (it announces no
 * `reviewId` parameter, e.g. an older AutoCAD plugin): the id then leads the visible text.
 */
export function visibleIdPayload(payload: LeaderPayload): LeaderPayload {
  const { reviewId, ...args } = payload.args;
  return { tool: payload.tool, args: { ...args, text: reviewId ? annotationText(reviewId, args.text) : args.text } };
}

/** The hash an approval is bound to: any change of tool, points, text or height invalidates it. */
export function payloadHash(annotation: Annotation): string {
  return sha256Hex(canonicalJson(leaderPayload(annotation)));
}

/** The proposed note of a finding; `layout` for a finding on a paper sheet (see sheet.ts). */
export function proposeAnnotation(finding: Finding, textHeight: number, layout?: string): Annotation {
  return {
    ...(layout ? { layout } : {}),
    findingId: finding.id,
    shortId: finding.shortId,
    state: 'proposed',
    text: finding.proposedAnnotation.text,
    anchor: finding.proposedAnnotation.anchor,
    textAt: finding.proposedAnnotation.textAt,
    textHeight,
    approvedPayloadHash: null,
  };
}

/** A user decision or the writer's confirmation. */
export type AnnotationEvent =
  /** Approves the payload the user saw; `payloadHash` must equal the current payload's hash. */
  | { kind: 'approve'; payloadHash: string }
  /** Changes text and/or placement; the edited payload is what the user approves. */
  | { kind: 'edit'; text?: string; anchor?: Point; textAt?: Point }
  | { kind: 'reject' }
  /** The writer wrote exactly `payloadHash` to the drawing. */
  | { kind: 'written'; payloadHash: string };

/**
 * Applies one event. Errors: REVIEW_ANNOTATION_WRITTEN (already written: terminal),
 * REVIEW_APPROVAL_STALE (the approval names a payload that is not the current one),
 * REVIEW_NOT_APPROVED (a write of something not approved with this exact payload).
 */
export function applyAnnotationEvent(annotation: Annotation, event: AnnotationEvent): Annotation {
  if (annotation.state === 'written') {
    throw new AppError('REVIEW_ANNOTATION_WRITTEN', `Annotation ${annotation.shortId} is already written to the drawing.`, {
      data: { findingId: annotation.findingId },
    });
  }
  switch (event.kind) {
    case 'approve': {
      const current = payloadHash(annotation);
      if (event.payloadHash !== current) {
        throw new AppError('REVIEW_APPROVAL_STALE', `Annotation ${annotation.shortId} changed since it was shown; review it again.`, {
          data: { findingId: annotation.findingId, expected: current },
        });
      }
      return { ...annotation, state: 'approved', approvedPayloadHash: current };
    }
    case 'edit': {
      const text = event.text?.trim();
      if (text !== undefined && (text.length === 0 || text.length > 500)) {
        throw new AppError('REVIEW_ANNOTATION_INVALID', 'Annotation text must be 1 to 500 characters.', { data: { findingId: annotation.findingId } });
      }
      const edited: Annotation = {
        ...annotation,
        text: text ?? annotation.text,
        anchor: event.anchor ?? annotation.anchor,
        textAt: event.textAt ?? annotation.textAt,
        state: 'edited',
      };
      return { ...edited, approvedPayloadHash: payloadHash(edited) };
    }
    case 'reject':
      return { ...annotation, state: 'rejected', approvedPayloadHash: null };
    case 'written': {
      const current = payloadHash(annotation);
      const approved = (annotation.state === 'approved' || annotation.state === 'edited') && annotation.approvedPayloadHash === current;
      if (!approved || event.payloadHash !== current) {
        throw new AppError('REVIEW_NOT_APPROVED', `Annotation ${annotation.shortId} is not approved with this exact payload.`, {
          data: { findingId: annotation.findingId, state: annotation.state },
        });
      }
      return { ...annotation, state: 'written' };
    }
  }
}

/** True when the writer may write this annotation now. */
export function isWritable(annotation: Annotation): boolean {
  return (annotation.state === 'approved' || annotation.state === 'edited') && annotation.approvedPayloadHash === payloadHash(annotation);
}

import type { Frame } from './frame';
import { bboxHeight, bboxWidth, boxesIntersect, type BBox, type Point } from './geometry';

/** GB/T 10609.1 title block: 180 × 56 mm in the bottom-right corner inside the border. */
const TITLE_BLOCK_MM = { width: 180, height: 56 };
/** GB/T 14689 border margins (binding edge a = 25, others c ≤ 10) plus a little air. */
const MARGIN_MM = { left: 27, other: 12 };
/** Directions tried for the text, nearest first: up-right as before, then the others. */
const DIRECTIONS: readonly [number, number][] = [[1, 1], [-1, 1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1], [0, -1]];

export interface LeaderPlacementInput {
  anchor: Point;
  frame: Frame;
  /** Boxes of what is drawn in the frame (texts, geometry); the text should cover none of them. */
  occupied: readonly BBox[];
  text: string;
  /** Text height in drawing units. */
  height: number;
  /** Preferred leader length in drawing units. */
  offset: number;
  unitsPerPaperMm: number;
}

/** Box the leader's text takes when its last point is `at` (left-aligned, as the writer places it). */
export function leaderTextBox(at: Point, toward: number, text: string, height: number): BBox {
  // Han characters are about one height wide, Latin ones about 0.7.
  const width = [...text].reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 1 : 0.7), 0) * height;
  const x = at.x + toward * height * 0.5;
  return { minX: x, minY: at.y, maxX: x + width, maxY: at.y + height * 1.4 };
}

/**
 * Where the leader's text goes: in free space inside the frame's border, off the title block,
 * covering as little drawn content as possible; the nearest such spot wins. Falls back to up-right
 * of the anchor when no candidate fits (a tiny frame), clamped into the frame.
 */
export function placeLeaderText(input: LeaderPlacementInput): Point {
  const { frame, anchor, offset, unitsPerPaperMm: k } = input;
  const b = frame.bbox;
  const inside: BBox = { minX: b.minX + MARGIN_MM.left * k, minY: b.minY + MARGIN_MM.other * k, maxX: b.maxX - MARGIN_MM.other * k, maxY: b.maxY - MARGIN_MM.other * k };
  // The title block where the backend found it (grown by a little air), else where GB puts it.
  const found = frame.titleBlockBox;
  const air = 2 * k;
  const titleBlock: BBox = found
    ? { minX: found.minX - air, minY: found.minY - air, maxX: found.maxX + air, maxY: found.maxY + air }
    : { minX: b.maxX - (TITLE_BLOCK_MM.width + MARGIN_MM.other) * k, minY: b.minY, maxX: b.maxX, maxY: b.minY + (TITLE_BLOCK_MM.height + MARGIN_MM.other) * k };
  // Lines that span most of the frame (border, title-block rules, centre lines) are not "content".
  const content = input.occupied.filter((o) => bboxWidth(o) < bboxWidth(b) * 0.5 && bboxHeight(o) < bboxHeight(b) * 0.5);
  let best: { at: Point; score: number } | undefined;
  // Far steps get a text out of the title block when the finding is in it.
  for (const step of [1, 1.8, 3, 5, 8]) {
    for (const [dx, dy] of DIRECTIONS) {
      const at = { x: anchor.x + dx * offset * step, y: anchor.y + dy * offset * step };
      const box = leaderTextBox(at, dx >= 0 ? 1 : -1, input.text, input.height);
      const fits = box.minX >= inside.minX && box.maxX <= inside.maxX && box.minY >= inside.minY && box.maxY <= inside.maxY;
      if (!fits || boxesIntersect(box, titleBlock)) continue;
      const score = content.filter((o) => boxesIntersect(o, box)).length;
      if (!best || score < best.score) best = { at, score };
      if (score === 0) return at;
    }
  }
  if (best) return best.at;
  return { x: Math.min(Math.max(anchor.x + offset, b.minX), b.maxX), y: Math.min(Math.max(anchor.y + offset, b.minY), b.maxY) };
}

/**
 * Places the leader texts of one frame's findings one after the other, each avoiding the drawn
 * content and the texts placed before it (so leaders of neighbouring findings do not overlap).
 */
export function placeFrameLeaders<F extends { location: unknown; proposedAnnotation: { text: string; anchor: Point; textAt: Point } }>(
  findings: readonly F[],
  context: { frame: Frame; occupied: readonly BBox[]; height: number; offset: number; unitsPerPaperMm: number },
): F[] {
  if (context.frame.origin !== 'detected') return [...findings];
  const occupied = [...context.occupied];
  return findings.map((finding) => {
    const { anchor, text } = finding.proposedAnnotation;
    const textAt = placeLeaderText({ anchor, frame: context.frame, occupied, text, height: context.height, offset: context.offset, unitsPerPaperMm: context.unitsPerPaperMm });
    occupied.push(leaderTextBox(textAt, textAt.x >= anchor.x ? 1 : -1, text, context.height));
    return { ...finding, proposedAnnotation: { ...finding.proposedAnnotation, textAt } };
  });
}

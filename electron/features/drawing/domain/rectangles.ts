import { isEmptyBox } from './geometry';
import type { Box, DxfEntity } from './model';

/** Lines shorter than this share of the layout size cannot be a frame edge (keeps the search small). */
const MIN_EDGE_SHARE = 0.05;
/** Pairs examined per edge key; bounds the work on drawings with thousands of equal lines. */
const MAX_PAIRS_PER_KEY = 64;

interface Segment {
  from: number;
  to: number;
  at: number;
}

/**
 * Rectangles drawn as four separate axis-parallel LINEs (frames in many templates are):
 * two horizontal lines with the same x span and two vertical lines covering the gap at both ends.
 */
export function findLineRectangles(entities: DxfEntity[], extents: Box): Box[] {
  if (isEmptyBox(extents)) return [];
  const size = Math.max(extents.maxX - extents.minX, extents.maxY - extents.minY);
  const eps = size * 1e-5;
  const minLength = size * MIN_EDGE_SHARE;
  const key = (v: number): number => Math.round(v / eps);
  const horizontal = new Map<string, Segment[]>();
  const vertical = new Map<number, Segment[]>();
  for (const entity of entities) {
    const g = entity.geometry;
    if (g.kind !== 'line') continue;
    const dx = Math.abs(g.b.x - g.a.x);
    const dy = Math.abs(g.b.y - g.a.y);
    if (dy <= eps && dx >= minLength) {
      const seg = { from: Math.min(g.a.x, g.b.x), to: Math.max(g.a.x, g.b.x), at: g.a.y };
      const k = `${key(seg.from)}:${key(seg.to)}`;
      pushTo(horizontal, k, seg);
    } else if (dx <= eps && dy >= minLength) {
      const seg = { from: Math.min(g.a.y, g.b.y), to: Math.max(g.a.y, g.b.y), at: g.a.x };
      const k = key(seg.at);
      pushTo(vertical, k, seg);
    }
  }
  const covers = (x: number, y1: number, y2: number): boolean => (vertical.get(key(x)) ?? []).some((s) => s.from <= y1 + eps * 10 && s.to >= y2 - eps * 10);
  const boxes: Box[] = [];
  for (const segments of horizontal.values()) {
    if (segments.length < 2) continue;
    const sorted = segments.slice(0, MAX_PAIRS_PER_KEY).sort((a, b) => a.at - b.at);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const low = sorted[i] as Segment;
        const high = sorted[j] as Segment;
        if (high.at - low.at < minLength) continue;
        if (covers(low.from, low.at, high.at) && covers(low.to, low.at, high.at)) boxes.push({ minX: low.from, minY: low.at, maxX: low.to, maxY: high.at });
      }
    }
  }
  return boxes;
}

function pushTo<K>(map: Map<K, Segment[]>, key: K, segment: Segment): void {
  const list = map.get(key);
  if (list) list.push(segment);
  else map.set(key, [segment]);
}

import { boxesIntersect, isEmptyBox } from './geometry';
import type { Box } from './model';

/** Cells per axis: 128² cells keeps a 200k-entity layout at ~12 entries per cell. */
const CELLS = 128;

/**
 * Uniform grid over a layout's extents for box queries: items are registered in every cell their
 * box overlaps; a query visits only the cells the query box overlaps and returns items in their
 * original order. Items with an empty box are never returned by a box query.
 */
export class SpatialGrid<T> {
  private readonly cells: number[][] = [];
  private readonly minX: number;
  private readonly minY: number;
  private readonly cellW: number;
  private readonly cellH: number;
  /** Query number each item was last visited in (dedupes items registered in several cells without a Set). */
  private readonly visited: Uint32Array;
  private queries = 0;

  constructor(
    private readonly items: T[],
    private readonly boxes: Box[],
    extents: Box,
  ) {
    this.minX = extents.minX;
    this.minY = extents.minY;
    this.cellW = Math.max((extents.maxX - extents.minX) / CELLS, Number.MIN_VALUE);
    this.cellH = Math.max((extents.maxY - extents.minY) / CELLS, Number.MIN_VALUE);
    this.visited = new Uint32Array(items.length);
    for (let i = 0; i < CELLS * CELLS; i++) this.cells.push([]);
    boxes.forEach((box, i) => {
      if (isEmptyBox(box)) return;
      const [x0, x1, y0, y1] = this.range(box);
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) (this.cells[y * CELLS + x] as number[]).push(i);
    });
  }

  private range(box: Box): [number, number, number, number] {
    const clamp = (v: number): number => Math.min(CELLS - 1, Math.max(0, Math.floor(v)));
    return [clamp((box.minX - this.minX) / this.cellW), clamp((box.maxX - this.minX) / this.cellW), clamp((box.minY - this.minY) / this.cellH), clamp((box.maxY - this.minY) / this.cellH)];
  }

  query(box: Box): T[] {
    const [x0, x1, y0, y1] = this.range(box);
    if (this.queries === 0xffffffff) {
      this.visited.fill(0);
      this.queries = 0;
    }
    const stamp = ++this.queries;
    const hits: number[] = [];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        for (const i of this.cells[y * CELLS + x] as number[]) {
          if (this.visited[i] === stamp) continue;
          this.visited[i] = stamp;
          if (boxesIntersect(this.boxes[i] as Box, box)) hits.push(i);
        }
      }
    }
    return Array.from(Int32Array.from(hits).sort(), (i) => this.items[i] as T);
  }
}

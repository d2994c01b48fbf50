import { AppError } from '../../../../shared/errors';
import { compose, emptyBox, insertTransform, isEmptyBox, transformBox, unionBox, IDENTITY, type Affine } from './geometry';
import type { Box, DxfDocument, DxfEntity, InsertGeometry } from './model';
import type { DxfProblem } from './tags';

/** Block nesting deeper than this is not drawn (and reported): real drawings nest a handful of levels. */
export const MAX_NESTING = 16;
/** MINSERT arrays larger than this are drawn as their first cell only (bounds render work). */
export const MAX_ARRAY_CELLS = 10_000;
/**
 * Most entities one top-level entity may expand to. A 28 KB file of 10 inserts per block nested
 * 9 deep expands to 10⁹ lines; the budget turns that into CAD_DXF_TOO_COMPLEX instead of an
 * out-of-memory abort, while real drawings stay far below it (the largest corpus INSERT: ~3k).
 */
export const MAX_EXPANDED_ENTITIES = 2_000_000;

/** The cells of an INSERT that are drawn (a MINSERT over the cap draws only its first cell). */
export function insertCells(g: InsertGeometry): { columns: number; rows: number } {
  return g.columns * g.rows <= MAX_ARRAY_CELLS ? { columns: g.columns, rows: g.rows } : { columns: 1, rows: 1 };
}

/** Transform of one MINSERT cell (spacing runs along the rotated block axes). */
export function cellTransform(g: InsertGeometry, base: { x: number; y: number }, column: number, row: number): Affine {
  const r = (g.rotation * Math.PI) / 180;
  const dx = column * g.columnSpacing;
  const dy = row * g.rowSpacing;
  const at = { x: g.at.x + dx * Math.cos(r) - dy * Math.sin(r), y: g.at.y + dx * Math.sin(r) + dy * Math.cos(r) };
  return insertTransform(at, g.scaleX, g.scaleY, g.rotation, base);
}

/** CAD_DXF_TOO_COMPLEX for an entity whose block expansion exceeds the budget. */
export function tooComplex(entity: DxfEntity, expanded: number, budget: number): AppError {
  return new AppError('CAD_DXF_TOO_COMPLEX', `${entity.type} ${entity.handle || '(no handle)'} expands to ${expanded.toExponential(2)} entities through nested blocks (budget ${budget}); the drawing is too complex to draw or measure`, {
    data: { handle: entity.handle, type: entity.type, expanded, budget },
  });
}

/**
 * Block-graph facts computed without expanding anything: how many entities each block expands
 * to (memoised over the block DAG, so a 10⁹ fan-out costs one pass), its box in block
 * coordinates, and the blocks that reference themselves. Per document, never shared.
 */
export class BlockExpansion {
  private readonly counts = new Map<string, number>();
  private readonly boxes = new Map<string, Box>();
  private readonly onStack = new Set<string>();
  readonly selfReferencing = new Set<string>();

  constructor(
    private readonly doc: DxfDocument,
    /** Box of a non-block entity in its own coordinates (supplied by the index: no primitives here). */
    private readonly leafBox: (entity: DxfEntity) => Box,
  ) {}

  /** Entities drawn for `entity`, itself included (blocks, MINSERT cells and attributes counted). */
  count(entity: DxfEntity): number {
    const g = entity.geometry;
    if (g.kind === 'insert') {
      const cells = insertCells(g);
      return 1 + g.attribs.length + cells.columns * cells.rows * this.blockCount(g.name);
    }
    if (g.kind === 'dimension') return 1 + this.blockCount(g.blockName);
    return 1;
  }

  /** Box of `entity` from block boxes (corners transformed): a cheap superset for any expansion size. */
  box(entity: DxfEntity): Box {
    const g = entity.geometry;
    if (g.kind === 'dimension') return this.blockBox(g.blockName, IDENTITY);
    if (g.kind !== 'insert') return this.leafBox(entity);
    const out = emptyBox();
    const block = this.doc.blocks.get(g.name.toUpperCase());
    if (block) {
      const cells = insertCells(g);
      for (const [column, row] of [[0, 0], [cells.columns - 1, 0], [0, cells.rows - 1], [cells.columns - 1, cells.rows - 1]] as const) unionBox(out, this.blockBox(g.name, cellTransform(g, block.basePoint, column, row)));
    }
    for (const attrib of g.attribs) unionBox(out, this.leafBox(attrib));
    return out;
  }

  /** Entities one copy of block `name` expands to (0 for a missing block or a repetition inside a cycle). */
  blockCount(name: string): number {
    const key = name.toUpperCase();
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const block = this.doc.blocks.get(key);
    if (!block || this.onStack.has(key)) {
      if (block) this.selfReferencing.add(block.name);
      return 0; // a cycle is not drawn past its first repetition (see world.ts)
    }
    this.onStack.add(key);
    let total = 0;
    for (const child of block.entities) if (child.type !== 'ATTDEF') total += this.count(child);
    this.onStack.delete(key);
    this.counts.set(key, total);
    return total;
  }

  private blockBox(name: string, m: Affine): Box {
    const key = name.toUpperCase();
    let local = this.boxes.get(key);
    if (!local) {
      local = emptyBox();
      const block = this.doc.blocks.get(key);
      if (block && !this.onStack.has(key)) {
        this.onStack.add(key);
        for (const child of block.entities) if (child.type !== 'ATTDEF') unionBox(local, this.box(child));
        this.onStack.delete(key);
      }
      this.boxes.set(key, local);
    }
    return isEmptyBox(local) ? local : transformBox(m, local);
  }

  /** Blocks reached through more than MAX_NESTING levels from a layout (their deepest parts are not drawn). */
  tooDeep(): string[] {
    const depth = new Map<string, number>();
    const visit = (key: string, stack: Set<string>): number => {
      const known = depth.get(key);
      if (known !== undefined) return known;
      const block = this.doc.blocks.get(key);
      if (!block || stack.has(key)) return 0;
      stack.add(key);
      let deepest = 0;
      for (const child of block.entities) {
        const g = child.geometry;
        const inner = g.kind === 'insert' ? g.name : g.kind === 'dimension' ? g.blockName : '';
        if (inner) deepest = Math.max(deepest, 1 + visit(inner.toUpperCase(), stack));
      }
      stack.delete(key);
      depth.set(key, deepest);
      return deepest;
    };
    const out: string[] = [];
    for (const [key, block] of this.doc.blocks) if (visit(key, new Set()) + 1 > MAX_NESTING) out.push(block.name);
    return out;
  }
}

/**
 * Problems of the block structure a reviewer should know about: self-referencing blocks (AutoCAD
 * refuses them; drawn once, the repetition cut), nesting deeper than MAX_NESTING (deeper levels
 * not drawn), entities expanding past the budget (served as CAD_DXF_TOO_COMPLEX).
 */
export function blockStructureProblems(doc: DxfDocument, expansion: BlockExpansion): DxfProblem[] {
  const problems: DxfProblem[] = [];
  let overBudget = 0;
  let largest = 0;
  for (const layout of doc.layouts) {
    for (const entity of layout.entities) {
      const n = expansion.count(entity);
      if (n > MAX_EXPANDED_ENTITIES) overBudget++;
      largest = Math.max(largest, n);
    }
  }
  for (const block of doc.blocks.values()) expansion.blockCount(block.name);
  for (const name of expansion.selfReferencing) problems.push({ kind: 'self_referencing_block', message: `block ${name} inserts itself (directly or through other blocks); the repetition is not drawn` });
  for (const name of expansion.tooDeep()) problems.push({ kind: 'block_nesting_too_deep', message: `block ${name} nests more than ${MAX_NESTING} levels deep; deeper levels are not drawn` });
  if (overBudget > 0) problems.push({ kind: 'block_expansion_too_large', message: `${overBudget} entit${overBudget === 1 ? 'y expands' : 'ies expand'} to more than ${MAX_EXPANDED_ENTITIES} entities through nested blocks (largest ${largest.toExponential(2)}); drawing or measuring them fails with CAD_DXF_TOO_COMPLEX` });
  return problems;
}

/** `parent` followed by one MINSERT cell's placement (world.ts and the expansion share the cell rule). */
export function composeCell(parent: Affine, g: InsertGeometry, base: { x: number; y: number }, column: number, row: number): Affine {
  return compose(parent, cellTransform(g, base, column, row));
}

import { z } from 'zod';
import { AppError } from '../../../../../shared/errors';
import type { ToolResult } from '../../domain/protocol/mcpTools';
import {
  dialectOf,
  HandleAllocator,
  REVIEW_LAYER,
  REVIEW_TEXT_STYLE,
  reviewLayerTags,
  reviewStyleTags,
  canStoreReviewIds,
  hasReviewApp,
  reviewAppTags,
  layoutByName,
  type Dialect,
  type EntityTarget,
  type Tag,
  DrawingIndex,
  findFrames,
  type DrawingFrame,
  type Box,
  type DxfDocument,
  writeDxf,
  type DxfScreenshotRenderer,
} from '../../../drawing';

/** Writes the drawing text in the file's encoding. Throws CAD_DXF_SAVE_FAILED on I/O errors. */
export interface DxfDrawingSink {
  save(path: string, dxfText: string): Promise<{ path: string; bytes: number }>;
}

/**
 * Decides the file save_drawing writes (the caller of the tool never decides alone: a TCP line
 * may come from any local process). `requested` is the tool's `path` argument, if any.
 * Errors: CAD_DXF_SAVE_REFUSED (outside the allowed places), CAD_DXF_OVERWRITE_REFUSED.
 */
export interface DxfSaveLocator {
  locate(requested: string | undefined, overwriteOriginal: boolean): Promise<string>;
}

export interface DxfBackendDeps {
  document: DxfDocument;
  /** The opened file; save_drawing writes `<name>.ai-review.dxf` next to it. */
  sourcePath: string;
  renderer: DxfScreenshotRenderer;
  sink: DxfDrawingSink;
  saveLocator: DxfSaveLocator;
}

/**
 * Load problems that mean the file's structure was repaired: copying its tags would copy the
 * damage. Content problems (unknown hatch patterns, over-deep nesting) leave a valid file.
 */
const STRUCTURAL_DAMAGE = new Set(['stray_tag', 'stray_entity', 'stray_table_entry', 'missing_endsec', 'missing_endtab', 'block_without_name', 'duplicate_block', 'empty_handle', 'duplicate_handle', 'invalid_group_code', 'truncated']);

/** One opened drawing plus the annotations written to it since it was opened. */
export class DxfSession {
  readonly index: DrawingIndex;
  readonly dialect: Dialect;
  readonly handles: HandleAllocator;
  /** Entities for the ENTITIES section: model space, and the active paper layout (group 67). */
  readonly newEntities: Tag[] = [];
  /** Entities for the other paper layouts, appended to their *Paper_SpaceN blocks. */
  private readonly blockEntities: Record<string, Tag[]> = {};
  private readonly layerEntries: Tag[] = [];
  private readonly appIdEntries: Tag[] = [];
  private readonly styleEntries: Tag[] = [];
  /** Top-level entity types added per layout (upper-case layout name). */
  private readonly addedCounts = new Map<string, Record<string, number>>();
  private frameCache: DrawingFrame[] | undefined;
  annotationCount = 0;

  constructor(readonly deps: DxfBackendDeps) {
    this.index = new DrawingIndex(deps.document);
    this.dialect = dialectOf(deps.document);
    this.handles = new HandleAllocator(deps.document);
  }

  get doc(): DxfDocument {
    return this.deps.document;
  }

  frames(): DrawingFrame[] {
    this.frameCache ??= findFrames(this.index);
    return this.frameCache;
  }

  /**
   * Refuses to write into a drawing the reader had to repair structurally: the copy would carry
   * the damage (tags outside their section or table, broken handles) into a file other programs
   * cannot open. Errors: CAD_DXF_WRITE_DAMAGED (data.problems = what the reader found).
   */
  assertWritable(): void {
    const damage = this.doc.problems.filter((p) => STRUCTURAL_DAMAGE.has(p.kind));
    if (damage.length === 0) return;
    throw new AppError('CAD_DXF_WRITE_DAMAGED', `this drawing was loaded with structural repairs (${[...new Set(damage.map((p) => p.kind))].join(', ')}); a copy would keep the damage. Open it in the CAD, audit and save it, then review the saved file.`, {
      data: { problems: damage.slice(0, 10) },
    });
  }

  /**
   * Where notes for a layout go ("Model" when absent) and the dialect to build them with: the
   * review's CJK text style (created on first use when the file has a STYLE table).
   * Errors: CAD_DXF_WRITE_DAMAGED, CAD_DXF_LAYOUT_NOT_FOUND, CAD_DXF_LAYOUT_NOT_WRITABLE.
   */
  noteTarget(layoutName: string | undefined): { dialect: Dialect; target: EntityTarget; layout: string } {
    this.assertWritable();
    const layout = layoutByName(this.index, layoutName);
    const styleTable = this.doc.tables.find((t) => t.name === 'STYLE');
    if (!this.doc.styles.has(REVIEW_TEXT_STYLE.name.toUpperCase()) && this.styleEntries.length === 0 && styleTable) {
      this.styleEntries.push(...reviewStyleTags(this.dialect, this.handles, styleTable.handle));
    }
    const styled = this.doc.styles.has(REVIEW_TEXT_STYLE.name.toUpperCase()) || this.styleEntries.length > 0;
    const dialect = styled ? { ...this.dialect, textStyle: REVIEW_TEXT_STYLE.name } : this.dialect;
    if (!layout.paperSpace) return { dialect, target: { owner: this.dialect.modelSpaceOwner, paperSpace: false }, layout: layout.name };
    const block = layout.blockName.toUpperCase();
    if (block !== '*PAPER_SPACE' && !this.doc.blocks.has(block)) {
      throw new AppError('CAD_DXF_LAYOUT_NOT_WRITABLE', `layout "${layout.name}" has no block of its own in this file; notes cannot be placed on it`, { data: { layout: layout.name } });
    }
    const owner = [...this.doc.blockRecords].find(([, name]) => name.toUpperCase() === block)?.[0] ?? (this.doc.blocks.get(block)?.recordHandle || undefined);
    return { dialect, target: { owner, paperSpace: true }, layout: layout.name };
  }

  /** Adds annotation entities to a layout (from noteTarget); creates the AI_REVIEW layer entry on first use when it is missing. */
  addEntities(tags: Tag[], layoutName = 'Model'): void {
    this.assertWritable();
    const layout = layoutByName(this.index, layoutName);
    if (this.layerEntries.length === 0 && !this.doc.layers.has(REVIEW_LAYER) && this.doc.tables.some((t) => t.name === 'LAYER')) {
      this.layerEntries.push(...reviewLayerTags(this.dialect, this.handles, this.doc.tables.find((t) => t.name === 'LAYER')?.handle, this.doc));
    }
    const block = layout.blockName.toUpperCase();
    if (!layout.paperSpace || block === '*PAPER_SPACE') this.newEntities.push(...tags);
    else (this.blockEntities[layout.blockName] ??= []).push(...tags);
    const counts = this.addedCounts.get(layout.name.toUpperCase()) ?? {};
    for (const [code, value] of tags) if (code === 0 && value !== 'VERTEX' && value !== 'SEQEND') counts[value] = (counts[value] ?? 0) + 1;
    this.addedCounts.set(layout.name.toUpperCase(), counts);
    this.annotationCount++;
  }

  /** Registers CadSight's XDATA application on first use; false when the file cannot hold XDATA ids. */
  ensureReviewApp(): boolean {
    if (!canStoreReviewIds(this.doc)) return false;
    if (this.appIdEntries.length === 0 && !hasReviewApp(this.doc)) {
      this.appIdEntries.push(...reviewAppTags(this.dialect, this.handles, this.doc.tables.find((t) => t.name === 'APPID')?.handle));
    }
    return true;
  }

  /** Top-level entities added this session to a layout, by type (LEADER, TEXT, …; a polyline's VERTEX/SEQEND are part of it). */
  addedByType(layoutName = 'Model'): Record<string, number> {
    return { ...(this.addedCounts.get(layoutName.toUpperCase()) ?? {}) };
  }

  serialise(): string {
    this.assertWritable();
    return writeDxf(this.doc, {
      entities: this.newEntities,
      layerEntries: this.layerEntries,
      appIdEntries: this.appIdEntries,
      styleEntries: this.styleEntries,
      blockEntities: this.blockEntities,
      ...(this.dialect.handles ? { handSeed: this.handles.seed() } : {}),
    });
  }
}

/** [minX, minY, maxX, maxY] in drawing units. */
export const bboxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[minX, minY, maxX, maxY] in drawing units');
export const layoutSchema = z.string().min(1).optional().describe('Layout name; "Model" (default) or a paper layout tab');

export function toBox(b: readonly [number, number, number, number]): Box {
  const [x1, y1, x2, y2] = b;
  if (!(x2 > x1 && y2 > y1)) throw new AppError('CAD_BAD_ARGUMENTS', 'bbox must be [minX, minY, maxX, maxY] with max > min', { data: { bbox: b } });
  return { minX: x1, minY: y1, maxX: x2, maxY: y2 };
}

export function jsonResult(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** One backend tool: schema published in tools/list, `run` gets validated input. */
export interface DxfTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(session: DxfSession, input: z.infer<S>): Promise<ToolResult> | ToolResult;
}

export function defineTool<S extends z.ZodType>(tool: DxfTool<S>): DxfTool<S> {
  return tool;
}

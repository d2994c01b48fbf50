import { z } from 'zod';
import { AppError } from '../../../../../shared/errors';
import type { ToolResult } from '../../domain/protocol/mcpTools';
import { dialectOf, HandleAllocator, REVIEW_LAYER, reviewLayerTags, canStoreReviewIds, hasReviewApp, reviewAppTags, type Dialect, type Tag, DrawingIndex, findFrames, type DrawingFrame, type Box, type DxfDocument, writeDxf, type DxfScreenshotRenderer } from '../../../drawing';

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

/** One opened drawing plus the annotations written to it since it was opened. */
export class DxfSession {
  readonly index: DrawingIndex;
  readonly dialect: Dialect;
  readonly handles: HandleAllocator;
  readonly newEntities: Tag[] = [];
  private readonly layerEntries: Tag[] = [];
  private readonly appIdEntries: Tag[] = [];
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

  /** Adds annotation entities; creates the AI_REVIEW layer entry on first use when it is missing. */
  addEntities(tags: Tag[]): void {
    if (this.layerEntries.length === 0 && !this.doc.layers.has(REVIEW_LAYER) && this.doc.tables.some((t) => t.name === 'LAYER')) {
      this.layerEntries.push(...reviewLayerTags(this.dialect, this.handles, this.doc.tables.find((t) => t.name === 'LAYER')?.handle, this.doc));
    }
    this.newEntities.push(...tags);
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

  /**
   * Top-level entities added this session by type (LEADER, TEXT, …; a polyline's VERTEX/SEQEND
   * are part of it). They all go to model space on layer AI_REVIEW.
   */
  addedByType(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [code, value] of this.newEntities) if (code === 0 && value !== 'VERTEX' && value !== 'SEQEND') counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }

  serialise(): string {
    return writeDxf(this.doc, { entities: this.newEntities, layerEntries: this.layerEntries, appIdEntries: this.appIdEntries, ...(this.dialect.handles ? { handSeed: this.handles.seed() } : {}) });
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

import type { DrawingListEvidence } from './drawingList';
import { z } from 'zod';
import { bboxSchema, screenshotTransformSchema, type BBox, type Point } from './geometry';

/** One entity as the evidence phase summarises it (not its full geometry). */
export interface EntitySummary {
  handle: string;
  type: string;
  layer: string;
  /** Extent in drawing coordinates (on the sheet for a paper layout); undefined when unknown. */
  bbox?: BBox;
  /** Paper layouts: "model" for a model-space entity seen through a viewport, "paper" for the sheet's own. */
  space?: 'paper' | 'model';
  /** Model-space extent of an entity seen through a viewport. */
  modelBbox?: BBox;
  /** Handle of the viewport it is seen through. */
  viewport?: string;
}

export interface TextItem {
  handle: string;
  text: string;
  position: Point;
  /** Text height in drawing units. */
  height: number;
  layer: string;
  /** Paper layouts: "model" for a model-space text seen through a viewport. */
  space?: 'paper' | 'model';
  /** Model-space position of a text seen through a viewport. */
  modelPosition?: Point;
  /** CadSight review id kept in the text's XDATA (our written annotations). */
  reviewId?: string;
  /** Text style and its fonts (SHX/TTF file names), when the backend reports them. */
  style?: string;
  font?: string;
  bigFont?: string;
  /** MTEXT inline font switch, which overrides the style's font. */
  inlineFont?: string;
}

/** A layer as the layer table defines it. */
export interface LayerItem {
  name: string;
  lineType: string;
  /** 1/100 mm; negative = default/by block/by layer (not set). */
  lineWeight: number;
  /** Top-level entities on the layer (layers nobody draws on are not judged). */
  entityCount: number;
}

export interface DimensionItem {
  handle: string;
  /** Backend's dimension kind ("linear", "angular", ...); angular kinds are in degrees. */
  dimType: string | null;
  /** The measurement stored in the file (group 42; radians for angles in DXF), null when omitted. */
  measurement: number | null;
  /** The value measured from the definition points (drawing units, degrees for angles), null when unknown. */
  measured: number | null;
  /** How the dimension style displays values, when the backend reports it. */
  display: { linearFactor: number; decimals: number; roundTo: number; suppressTrailingZeros: boolean } | null;
  /** The text the dimension's block shows (what prints), null when unknown. */
  blockText: string | null;
  /** User text override as stored ('' or null = none; may contain "<>" for the measured value). */
  textOverride: string | null;
  position: Point | null;
  layer: string;
  /** Height of the text the dimension's block shows, in drawing units (DIMTXT × DIMSCALE as drawn), when known. */
  blockTextHeight?: number;
  /** Paper sheets: "model" for a model-space dimension seen through a viewport (position and height on the sheet). */
  space?: 'paper' | 'model';
  /** Model-space text position of a dimension seen through a viewport. */
  modelPosition?: Point;
}

/** A deterministic detector hit (zero-length entity). */
export interface DetectorHit {
  handle: string;
  type: string;
  location: Point;
}

/** A group of identical entities: the first handle is kept, the others are the duplicates. */
export interface DuplicateGroup {
  handles: string[];
  type: string;
  location: Point;
}

/** A rendered screenshot stored next to the report, with its pixel↔drawing transform. */
export const screenshotRefSchema = z
  .object({
    /** Reference id used in evidence refs, e.g. "screenshot:F1/0". */
    id: z.string().min(1).max(120),
    /** Path relative to the report folder. */
    file: z.string().min(1).max(500),
    region: bboxSchema,
    widthPx: z.number().int().positive(),
    heightPx: z.number().int().positive(),
    transform: screenshotTransformSchema,
  })
  .strict();
export type ScreenshotRef = z.infer<typeof screenshotRefSchema>;

/** Counts kept in the report so a reader sees how much evidence each frame had. */
export const evidenceSummarySchema = z
  .object({
    texts: z.number().int().min(0),
    dimensions: z.number().int().min(0),
    entities: z.number().int().min(0),
    /** True when the entity listing hit the per-frame cap (statistics are then partial). */
    entitiesTruncated: z.boolean(),
    layers: z.record(z.string(), z.number().int().min(0)),
    entityTypes: z.record(z.string(), z.number().int().min(0)),
    toolCalls: z.array(z.string()),
    /** The LLM sub-loop's audit log: every tool call the model asked for, with digests (LLM runs only). */
    llmCalls: z
      .array(
        z
          .object({
            tool: z.string(),
            argsDigest: z.string(),
            resultDigest: z.string().nullable(),
            refused: z.enum(['not-read-only', 'budget']).nullable(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();
export type EvidenceSummary = z.infer<typeof evidenceSummarySchema>;

/** Everything known about one frame before review. */
export interface FrameEvidence {
  frameId: string;
  /** The drawing's layer table (drawing-wide; rules that judge layers read it once per frame they run in). */
  layers?: LayerItem[];
  texts: TextItem[];
  dimensions: DimensionItem[];
  entities: EntitySummary[];
  /**
   * Entities between the trimmed sheet and the inner border (centring marks, zone labels' lines),
   * when the sheet is known; they belong to no frame's `entities`.
   */
  marginEntities?: EntitySummary[];
  entitiesTruncated: boolean;
  zeroLength: DetectorHit[];
  duplicates: DuplicateGroup[];
  screenshots: ScreenshotRef[];
  /** Tool calls made for this frame ("tool:get_texts" style refs). */
  toolCalls: string[];
}

/** Drawing-level evidence (not tied to one frame). */
export interface DrawingEvidence {
  /** Stable digest of the drawing content (excluding our own AI_REVIEW layer). */
  fingerprint: string;
  /** Entities that lie in no frame. */
  outsideFrames: EntitySummary[];
  /**
   * Zero-length entities among `outsideFrames`: no sheet shows them, but geometry rules run on
   * every entity of the drawing, so they are reported at drawing level (absent: none).
   */
  outsideZeroLength?: DetectorHit[];
  /** Duplicate groups whose kept entity is among `outsideFrames` (absent: none). */
  outsideDuplicates?: DuplicateGroup[];
  /** Whether the drawing-wide entity listing hit its cap. */
  entitiesTruncated: boolean;
  /** The layer table, when the backend offers it. */
  layers: LayerItem[];
  /** What the reader had to repair or skip to load the drawing (recovery problems). */
  problems: { kind: string; message: string }[];
  /** Frames that are a 图纸目录 (drawing list), with the rows of their table. */
  drawingLists?: DrawingListEvidence[];
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

export function summariseEvidence(evidence: FrameEvidence): EvidenceSummary {
  return {
    texts: evidence.texts.length,
    dimensions: evidence.dimensions.length,
    entities: evidence.entities.length,
    entitiesTruncated: evidence.entitiesTruncated,
    layers: countBy(evidence.entities, (e) => e.layer),
    entityTypes: countBy(evidence.entities, (e) => e.type),
    toolCalls: evidence.toolCalls,
  };
}


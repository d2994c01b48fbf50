import type { TopologySnapshot } from '../domain/topology';
import type { EdgeLine, FaceMesh } from './cadRuntime';

export interface ArtifactFile {
  /** File name inside the output folder (no directories). */
  name: string;
  bytes: Uint8Array;
}

export interface ArtifactManifest {
  document_name: string;
  input_sha256: string;
  engine_version: string;
  created_at: string;
  files: { name: string; bytes: number; sha256: string }[];
}

/**
 * Writes a set of artifacts atomically: everything goes to a staging folder first, then one
 * rename publishes it. Errors: CDSL_ARTIFACT_WRITE_FAILED (the output folder exists and is not
 * empty, or the file system refused); nothing is left half-written at `outDir`.
 */
export interface ArtifactPublisher {
  publish(outDir: string, files: ArtifactFile[], meta: { document_name: string; input_text: string; engine_version: string }): Promise<ArtifactManifest>;
}

/** Binary encoders the artifact step needs (GLB writer, SVG→PNG rasterizer). */
export interface ArtifactEncoders {
  /**
   * GLB with one primitive per B-rep face (node extras: token, kind, measurements, so viewers can
   * highlight and describe a face) and one line primitive of the model edges (no seams).
   */
  glb(meshes: FaceMesh[], snapshot: TopologySnapshot, name: string, edges: EdgeLine[]): Promise<Uint8Array>;
  /** Rasterizes an SVG line drawing to PNG at `widthPx`. */
  png(svg: string, widthPx: number): Uint8Array;
}

/** The reviewer's rasterizer (CAD generation reviews; builds alone do not need it). */
export interface ReviewRenderEncoder {
  /**
   * Rasterizes an SVG for a reviewer request: `widthPx` wide (height from the SVG's aspect), as a
   * palette PNG of at most `colours` entries, all grey when `grey` (line art and flat shading need
   * few: the PNG is a fraction of the truecolour bytes). The SVGs are the build's own; an
   * unparsable one rejects with the rasterizer's error.
   */
  reviewPng(svg: string, options: ReviewPngOptions): Promise<{ bytes: Uint8Array; width: number; height: number }>;
}

/** Size and colour mode of one reviewer render. */
export interface ReviewPngOptions {
  widthPx: number;
  colours: number;
  grey: boolean;
}

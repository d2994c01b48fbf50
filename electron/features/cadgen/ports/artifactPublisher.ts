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

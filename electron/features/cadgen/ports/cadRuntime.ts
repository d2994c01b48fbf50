import type { AppErrorData } from '../../../../shared/errors';
import type { CdslDocument } from '../domain/document';
import type { ProjectionMethod, ProjectionViewName } from '../domain/drawingViews';
import type { TopologySnapshot } from '../domain/topology';

/** Which heavy outputs the runtime should produce besides topology and measurements. */
export interface BuildOutputs {
  step: boolean;
  meshes: boolean;
  projections: boolean;
  /** Which orthographic views to project (default first angle: front, top, left, iso). */
  projection_method?: ProjectionMethod;
  /** A full front section through the plane y = plane_y (with projections). */
  section?: { plane_y: number };
}

/**
 * A full section seen from the front: SVG path data of the remaining half's visible edges (same
 * convention as ProjectionView) and per cut face its boundary loops (outer first, then holes) as
 * flat [x, z, x, z, …] lists.
 */
export interface SectionView {
  plane_y: number;
  visible: string[];
  faces: number[][][];
}

export type FeatureStatus = 'built' | 'failed' | 'skipped';

/** Per-feature result of a rebuild. `error` is set exactly when status is failed. */
export interface FeatureReport {
  id: string;
  atomic_id: string;
  status: FeatureStatus;
  duration_ms?: number;
  solid_count?: number;
  volume_mm3?: number;
  error?: AppErrorData;
}

/** Triangles of one B-rep face, so a viewer can highlight the face by its token. */
export interface FaceMesh {
  face_index: number;
  token: string;
  positions: number[];
  normals: number[];
  indices: number[];
}

/**
 * One B-rep edge as line segments (consecutive point pairs, mm), so a viewer draws the model's
 * true edges. Seam edges of periodic surfaces (a cylinder's seam) are not included.
 */
export interface EdgeLine {
  edge_index: number;
  token: string;
  positions: number[];
}

export type { ProjectionMethod, ProjectionViewName };

/**
 * Hidden-line-removed projection: SVG path data of visible and hidden edges (drawing units mm,
 * SVG x = model point · camera x_axis, SVG y = −(point · camera y_axis), see VIEW_CAMERAS).
 */
export interface ProjectionView {
  view: ProjectionViewName;
  visible: string[];
  hidden: string[];
  view_box: string;
}

export interface BuildOutcome {
  engine_version: string;
  ok: boolean;
  features: FeatureReport[];
  /** Topology of the last successfully built revision (null when the first feature failed). */
  snapshot: TopologySnapshot | null;
  step?: string;
  meshes?: FaceMesh[];
  /** Produced with `meshes`. */
  edge_lines?: EdgeLine[];
  projections?: ProjectionView[];
  /** Set when `outputs.section` was asked for. */
  section?: SectionView;
  /** The method the projections follow (set when projections were produced). */
  projection_method?: ProjectionMethod;
  timings_ms: { build: number; snapshot: number; step?: number; meshes?: number; projections?: number };
  /** Worker memory after the build's objects were released (leak detection). */
  memory: { wasm_heap_bytes: number; live_objects: number; released_objects: number };
}

export interface StepInspection {
  solid_count: number;
  volume_mm3: number;
  valid: boolean;
}

export interface RuntimeStats {
  workers_started: number;
  timeouts: number;
  crashes: number;
  /** Workers replaced because their WASM heap passed the recycle threshold. */
  recycles: number;
  kernel_start_ms: number | null;
}

/**
 * The CAD kernel behind CDSL. Implementations run the kernel isolated from the caller.
 * Errors (AppError): CDSL_RUNTIME_TIMEOUT (an operation exceeded its time; the kernel was
 * replaced), CDSL_RUNTIME_CRASHED (the kernel died; it was replaced), CDSL_RUNTIME_UNAVAILABLE
 * (the kernel could not start or the runtime was disposed). Geometry failures are not thrown:
 * they are reported per feature in `BuildOutcome.features`.
 */
export interface CadRuntime {
  /** Rebuilds the whole document from scratch (deterministic: same document → same outcome). */
  build(document: CdslDocument, outputs: BuildOutputs): Promise<BuildOutcome>;
  /** Re-imports a STEP file with the kernel and measures it (independent check of exports). */
  inspectStep(stepText: string): Promise<StepInspection>;
  /** Starts the kernel now instead of on first use; resolves with the start time in ms. */
  warmUp(): Promise<number>;
  stats(): RuntimeStats;
  /** Terminates the worker; later calls fail with CDSL_RUNTIME_UNAVAILABLE. */
  dispose(): Promise<void>;
}

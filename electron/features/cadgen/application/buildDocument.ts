import { canonicalJson } from '../domain/canonicalJson';
import type { Claim } from '../domain/claims';
import type { CdslDocument } from '../domain/document';
import { projectionSvg } from '../domain/drawingSvg';
import type { DrawingLanguage } from '../domain/drawingSvg';
import { shadedIsoSvg } from '../domain/shadedIso';
import { DEFAULT_PROJECTION_METHOD } from '../domain/drawingViews';
import type { ProjectionMethod } from '../domain/drawingViews';
import { summarizeTopology } from '../domain/topology';
import type { Measurements } from '../domain/topology';
import type { ArtifactEncoders, ArtifactFile, ArtifactManifest, ArtifactPublisher } from '../ports/artifactPublisher';
import type { BuildOutcome, CadRuntime, FeatureReport } from '../ports/cadRuntime';
import type { CdslCatalog } from './cdslCatalog';
import { evaluateClaims } from './evaluateClaims';
import type { ClaimResult } from './evaluateClaims';
import { assertBuildOutcome } from './runtimeContract';

export interface BuildDependencies {
  catalog: CdslCatalog;
  runtime: CadRuntime;
  /** Both present → artifacts are produced and published to `outDir`. */
  publisher?: ArtifactPublisher;
  encoders?: ArtifactEncoders;
}

export interface BuildRequest {
  document: CdslDocument;
  claims: Claim[];
  /** Output folder for STEP/GLB/drawings/measurements; omitted → no artifacts. */
  outDir?: string;
  stage: 'candidate' | 'final';
  /** Orthographic views of the drawings: first angle (default, GB/T 4458.1) or third angle. */
  projectionMethod?: ProjectionMethod;
  /** Language of the line drawings' labels (view names, 通孔/THRU); English when omitted. */
  labelLanguage?: DrawingLanguage;
}

/** What `cadsight cdsl build` prints and the UI shows. */
export interface BuildReport {
  ok: boolean;
  document_name: string;
  engine_version: string;
  features: FeatureReport[];
  measurements: Measurements | null;
  topology: Record<string, number> | null;
  claims: ClaimResult[];
  artifacts: ArtifactManifest | null;
  timings_ms: BuildOutcome['timings_ms'] & { artifacts?: number };
  memory: BuildOutcome['memory'];
  /** Method of the published drawings (null without artifacts). */
  projection_method: ProjectionMethod | null;
}

/** Drawings are rasterized wide enough that 2.5 mm lettering on an A4-sized view stays legible. */
const PNG_WIDTH_PX = 1600;
/** The shaded isometric view (SVG of flat-shaded triangles and visible edges), see shadedIsoSvg. */
export const SHADED_ISO_SVG = 'view-iso-shaded.svg';

async function artifactFiles(outcome: BuildOutcome, document: CdslDocument, claims: ClaimResult[], encoders: ArtifactEncoders, lang: DrawingLanguage): Promise<ArtifactFile[]> {
  const text = (name: string, value: string): ArtifactFile => ({ name, bytes: new TextEncoder().encode(value) });
  const snapshot = outcome.snapshot;
  if (!snapshot || !outcome.step || !outcome.meshes || !outcome.edge_lines || !outcome.projections) return [];
  const files: ArtifactFile[] = [text('model.step', outcome.step), { name: 'model.glb', bytes: await encoders.glb(outcome.meshes, snapshot, document.name, outcome.edge_lines) }];
  for (const view of outcome.projections) {
    const svg = projectionSvg({ view, method: outcome.projection_method ?? DEFAULT_PROJECTION_METHOD, snapshot, lang });
    files.push(text(`view-${view.view}.svg`, svg), { name: `view-${view.view}.png`, bytes: encoders.png(svg, PNG_WIDTH_PX) });
  }
  const iso = outcome.projections.find((v) => v.view === 'iso');
  // The reviewer's shaded view: rasterized per review at the size the review's image budget allows.
  if (iso) files.push(text(SHADED_ISO_SVG, shadedIsoSvg(outcome.meshes, iso.visible, snapshot)));
  files.push(text('measurements.json', JSON.stringify({ measurements: snapshot.measurements, features: outcome.features, claims }, null, 2)));
  files.push(text('topology.json', JSON.stringify(snapshot, null, 2)));
  files.push(text('document.cdsl.json', JSON.stringify(document, null, 2)));
  return files;
}

/**
 * Rebuilds a validated document on the runtime, evaluates the claims against the result and,
 * when an output folder is given, publishes STEP, GLB, line drawings (SVG+PNG), measurement and
 * topology JSON with a manifest. Errors: runtime errors (CDSL_RUNTIME_*; CDSL_RUNTIME_CONTRACT_INVALID
 * when the runtime's answer breaks its own contract) and
 * CDSL_ARTIFACT_WRITE_FAILED propagate; geometry failures are in the report.
 */
export async function buildDocument(deps: BuildDependencies, request: BuildRequest): Promise<BuildReport> {
  const withArtifacts = request.outDir !== undefined && deps.publisher !== undefined && deps.encoders !== undefined;
  const outputs = { step: withArtifacts, meshes: withArtifacts, projections: withArtifacts, projection_method: request.projectionMethod ?? DEFAULT_PROJECTION_METHOD };
  const outcome = await deps.runtime.build(request.document, outputs);
  assertBuildOutcome(outcome, outputs);
  const renders = outcome.projections ? [...outcome.projections.flatMap((v) => [`view-${v.view}.svg`, `view-${v.view}.png`]), ...(outcome.meshes && outcome.projections.some((v) => v.view === 'iso') ? [SHADED_ISO_SVG] : [])] : undefined;
  const claims = evaluateClaims(deps.catalog, request.claims, { snapshot: outcome.ok ? outcome.snapshot : null, stage: request.stage, ...(renders ? { renders } : {}) });
  let artifacts: ArtifactManifest | null = null;
  let artifactsMs: number | undefined;
  if (withArtifacts && outcome.ok) {
    const started = performance.now();
    const files = await artifactFiles(outcome, request.document, claims, deps.encoders as ArtifactEncoders, request.labelLanguage ?? 'en');
    artifacts = await (deps.publisher as ArtifactPublisher).publish(request.outDir as string, files, {
      document_name: request.document.name,
      input_text: canonicalJson(request.document),
      engine_version: outcome.engine_version,
    });
    artifactsMs = performance.now() - started;
  }
  const claimsOk = claims.every((c) => c.status === 'pass' || (c.status === 'pending' && !c.deterministic));
  return {
    ok: outcome.ok && claimsOk,
    document_name: request.document.name,
    engine_version: outcome.engine_version,
    features: outcome.features,
    measurements: outcome.snapshot?.measurements ?? null,
    topology: outcome.snapshot ? summarizeTopology(outcome.snapshot) : null,
    claims,
    artifacts,
    timings_ms: { ...outcome.timings_ms, ...(artifactsMs !== undefined ? { artifacts: artifactsMs } : {}) },
    memory: outcome.memory,
    projection_method: artifacts ? (outcome.projection_method ?? DEFAULT_PROJECTION_METHOD) : null,
  };
}

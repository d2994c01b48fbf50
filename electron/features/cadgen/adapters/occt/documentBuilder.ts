import type { Shape3D } from 'replicad';
import { AppError, toAppErrorData } from '../../../../../shared/errors';
import { canonicalJson } from '../../domain/canonicalJson';
import { ALL_CONTRACTS } from '../../domain/contracts/registry';
import type { CdslDocument } from '../../domain/document';
import { cdslError, CdslErrorCode } from '../../domain/errors';
import { postBuildEffectProblem, runPreflights } from '../../domain/preflight';
import type { VolumeEffect } from '../../domain/preflight';
import { resolveRefs } from '../../domain/resolveRefs';
import type { FeatureRefInfo, Measurements } from '../../domain/topology';
import type { OperationContract } from '../../domain/contracts/types';
import { DEFAULT_PROJECTION_METHOD } from '../../domain/drawingViews';
import { exportSection } from './sectionExport';
import type { CdslFeature } from '../../domain/document';
import type { BuildOutcome, BuildOutputs, FeatureReport } from '../../ports/cadRuntime';
import { Arena } from './arena';
import { exportEdgeLines, exportFaceMeshes, exportProjections, exportStep } from './exports';
import { exactBoundingBox, isValidShape } from './geometryProbes';
import type { Kernel } from './kernel';
import { OCCT_EXECUTORS } from './operations';
import type { FeatureTool } from './operations';
import { readTopology, sha256Hex } from './topologyReader';
import type { ReadTopology } from './topologyReader';

const contractsById = new Map(ALL_CONTRACTS.map((c) => [c.atomic_id, c]));

/** Snapshot id of the revision after `count` features: engine + canonical feature prefix. */
export function snapshotIdFor(engineVersion: string, document: CdslDocument, count: number): string {
  return sha256Hex(`${engineVersion}|${canonicalJson(document.features.slice(0, count))}`);
}

/** Kernel exceptions become CDSL_BUILD_FAILED with the kernel's message (never a stack). */
function asBuildError(error: unknown, featureId: string): AppError {
  if (error instanceof AppError) return error;
  const detail = error instanceof Error ? error.message : 'OpenCascade raised an exception';
  return cdslError(CdslErrorCode.buildFailed, `${featureId}: the kernel could not execute the operation (${detail})`, { feature_id: featureId });
}

/** Post-build no-op check: throws CDSL_FEATURE_NO_EFFECT / CDSL_FEATURE_DISJOINT from the measured change. */
function assertFeatureEffect(contract: OperationContract, feature: CdslFeature, toolMode: 'add' | 'cut' | undefined, before: Measurements, after: Measurements): void {
  const effect: VolumeEffect = contract.body_effect === 'replay' ? (toolMode ?? 'modify') : contract.body_effect;
  const joins = contract.body_effect === 'replay' || feature.params?.body === 'join';
  const problem = postBuildEffectProblem(effect, joins, before, after);
  if (problem) throw cdslError(problem.code, `${feature.id} (${feature.atomic_id}): ${problem.message}`, { ...problem.data, feature_id: feature.id });
}

/**
 * Rebuilds a (validated) document from scratch on the kernel: resolve tokens against the previous
 * revision's snapshot, preflight, execute, check validity, snapshot. Every kernel object lives in
 * one arena released at the end, whatever happens.
 */
export async function buildOnKernel(kernel: Kernel, document: CdslDocument, outputs: BuildOutputs, onFeatureDone: (index: number) => void): Promise<BuildOutcome> {
  const arena = new Arena();
  const started = performance.now();
  const reports: FeatureReport[] = document.features.map((f) => ({ id: f.id, atomic_id: f.atomic_id, status: 'skipped' }));
  const tools = new Map<string, FeatureTool>();
  const featureRefs: Omit<FeatureRefInfo, 'token'>[] = [];
  let body: Shape3D | null = null;
  let previous: ReadTopology | null = null;
  let snapshotMs = 0;
  let outcome: BuildOutcome | undefined;
  try {
    for (const [index, feature] of document.features.entries()) {
      const report = reports[index] as FeatureReport;
      const featureStart = performance.now();
      try {
        const contract = contractsById.get(feature.atomic_id);
        const executor = OCCT_EXECUTORS[feature.atomic_id];
        if (!contract || !executor) throw cdslError(CdslErrorCode.contractUnknown, `${feature.id}: unknown operation ${feature.atomic_id}`);
        const resolved = resolveRefs(contract, feature, previous?.snapshot ?? null);
        runPreflights(contract.semantic_preflight, { feature, previous: previous?.snapshot ?? null, resolved });
        const result = executor({ kernel, arena, feature, body, previous, resolved, tools });
        if (!result.validated && !isValidShape(kernel, result.body)) {
          throw cdslError(CdslErrorCode.candidateInvalid, `${feature.id}: OpenCascade's checker rejects the resulting solid`, { feature_id: feature.id });
        }
        const snapshotStart = performance.now();
        const refs = result.tool && contract.body_effect !== 'modify' ? [...featureRefs, { feature_id: feature.id, atomic_id: feature.atomic_id, mode: result.tool.mode, tool_bbox: exactBoundingBox(kernel, result.tool.shape) }] : featureRefs;
        const next = readTopology(kernel, arena, result.body, snapshotIdFor(kernel.engineVersion, document, index + 1), refs);
        snapshotMs += performance.now() - snapshotStart;
        if (previous) assertFeatureEffect(contract, feature, result.tool?.mode, previous.snapshot.measurements, next.snapshot.measurements);
        body = result.body;
        previous = next;
        if (refs !== featureRefs && result.tool) {
          featureRefs.push(refs[refs.length - 1] as Omit<FeatureRefInfo, 'token'>);
          tools.set(feature.id, result.tool);
        }
        Object.assign(report, { status: 'built', duration_ms: performance.now() - featureStart, solid_count: previous.snapshot.measurements.solid_count, volume_mm3: previous.snapshot.measurements.volume_mm3 });
      } catch (error) {
        Object.assign(report, { status: 'failed', duration_ms: performance.now() - featureStart, error: toAppErrorData(asBuildError(error, feature.id)) });
        break;
      } finally {
        onFeatureDone(index);
      }
    }
    const ok = reports.every((r) => r.status === 'built');
    outcome = {
      engine_version: kernel.engineVersion,
      ok,
      features: reports,
      snapshot: previous?.snapshot ?? null,
      timings_ms: { build: performance.now() - started, snapshot: snapshotMs },
      memory: { wasm_heap_bytes: 0, live_objects: 0, released_objects: 0 },
    };
    if (ok && body && previous) await addExports(kernel, arena, body, previous, document.name, outputs, outcome);
  } finally {
    const released = arena.dispose();
    if (outcome) outcome.memory = { wasm_heap_bytes: kernel.wasmHeapBytes(), live_objects: arena.liveCount, released_objects: released };
  }
  if (!outcome) throw cdslError(CdslErrorCode.buildFailed, 'the build produced no outcome');
  return outcome;
}

async function addExports(kernel: Kernel, arena: Arena, body: Shape3D, topology: ReadTopology, name: string, outputs: BuildOutputs, outcome: BuildOutcome): Promise<void> {
  const time = async <T>(key: 'step' | 'meshes' | 'projections', run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    outcome.timings_ms[key] = performance.now() - start;
    return value;
  };
  if (outputs.step) outcome.step = await time('step', () => exportStep(kernel, body, name));
  if (outputs.meshes) {
    outcome.meshes = await time('meshes', () => exportFaceMeshes(body, topology.snapshot, topology.faces.map((f) => f.hashCode)));
    outcome.edge_lines = exportEdgeLines(body, topology.snapshot, topology.edges.map((e) => e.hashCode));
  }
  if (outputs.projections) {
    const method = outputs.projection_method ?? DEFAULT_PROJECTION_METHOD;
    outcome.projections = await time('projections', () => exportProjections(kernel, arena, body, method));
    outcome.projection_method = method;
    if (outputs.section) outcome.section = exportSection(kernel, arena, body, outputs.section.plane_y);
  }
}

import type { Shape3D } from 'replicad';
import type { CdslFeature } from '../../../domain/document';
import type { ResolvedRefs } from '../../../domain/preflight';
import type { Arena } from '../arena';
import type { Kernel } from '../kernel';
import type { ReadTopology } from '../topologyReader';

/** The tool body an add/cut feature applied, kept so patterns and mirrors can replay it. */
export interface FeatureTool {
  shape: Shape3D;
  mode: 'add' | 'cut';
}

export interface ExecutionContext {
  kernel: Kernel;
  arena: Arena;
  feature: CdslFeature;
  /** Current body, null before the first solid. */
  body: Shape3D | null;
  /** Topology of the current body with live faces/edges in snapshot order. */
  previous: ReadTopology | null;
  resolved: ResolvedRefs;
  tools: ReadonlyMap<string, FeatureTool>;
}

export interface ExecutionResult {
  body: Shape3D;
  tool?: FeatureTool;
  /** The executor already ran OpenCascade's checker on `body` (blends do, to search a workable size). */
  validated?: true;
}

/** Executes one operation on the kernel; throws (AppError or kernel Error) when it cannot. */
export type OperationExecutor = (context: ExecutionContext) => ExecutionResult;

/** Applies a tool to the body (fuse/cut or a separate new body) and records it. */
export function applyTool(context: ExecutionContext, shape: Shape3D, mode: 'add' | 'cut', newBody = false): ExecutionResult {
  const { arena, body, kernel } = context;
  arena.track(shape);
  if (!body) return { body: shape, tool: { shape, mode } };
  // makeCompound deletes the wrappers it is given: hand it clones, body and tool stay usable.
  if (mode === 'add' && newBody) return { body: arena.track(kernel.r.makeCompound([body.clone(), shape.clone()]) as Shape3D), tool: { shape, mode } };
  return { body: arena.track(mode === 'add' ? body.fuse(shape) : body.cut(shape)), tool: { shape, mode } };
}

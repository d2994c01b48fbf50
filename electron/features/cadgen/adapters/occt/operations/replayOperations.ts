import type { Shape3D } from 'replicad';
import { normalize, scale } from '../../../domain/vec3';
import type { Vec3 } from '../../../domain/vec3';
import { cdslError, CdslErrorCode } from '../../../domain/errors';
import type { ExecutionContext, ExecutionResult, FeatureTool, OperationExecutor } from './context';

function sourceTool(context: ExecutionContext): FeatureTool {
  const source = context.resolved.source;
  const tool = source ? context.tools.get(source.feature_id) : undefined;
  if (!source || !tool) throw cdslError(CdslErrorCode.selectorNotFound, `${context.feature.id}: the referenced feature has no tool body to replay`, { feature_id: context.feature.id });
  return tool;
}

/** Applies transformed copies of the source tool with the source's own mode (add or cut). */
function replay(context: ExecutionContext, copies: Shape3D[]): ExecutionResult {
  const { arena, kernel } = context;
  const mode = sourceTool(context).mode;
  const tool = copies.length === 1 ? (copies[0] as Shape3D) : (arena.track(kernel.r.makeCompound(copies)) as Shape3D);
  const body = context.body as Shape3D;
  return { body: arena.track(mode === 'add' ? body.fuse(tool) : body.cut(tool)), tool: { shape: tool, mode } };
}

export const executePatternLinear: OperationExecutor = (context) => {
  const params = context.feature.params as { direction: Vec3; spacing_mm: number; count: number };
  const tool = sourceTool(context).shape;
  const unit = normalize(params.direction) as Vec3;
  const copies: Shape3D[] = [];
  for (let i = 1; i < params.count; i += 1) {
    const offset = scale(unit, params.spacing_mm * i);
    // replicad transforms consume their receiver, so each copy starts from a fresh clone.
    copies.push(context.arena.track(context.arena.track(tool.clone()).translate([...offset])));
  }
  return replay(context, copies);
};

export const executePatternCircular: OperationExecutor = (context) => {
  const params = context.feature.params as { axis: { origin: Vec3; direction: Vec3 }; count: number; total_angle_deg: number };
  const tool = sourceTool(context).shape;
  const step = params.total_angle_deg >= 360 ? 360 / params.count : params.total_angle_deg / (params.count - 1);
  const copies: Shape3D[] = [];
  for (let i = 1; i < params.count; i += 1) {
    copies.push(context.arena.track(context.arena.track(tool.clone()).rotate(step * i, [...params.axis.origin], [...params.axis.direction])));
  }
  return replay(context, copies);
};

export const executeMirror: OperationExecutor = (context) => {
  const params = context.feature.params as { plane: { origin: Vec3; normal: Vec3 } };
  const tool = sourceTool(context).shape;
  return replay(context, [context.arena.track(context.arena.track(tool.clone()).mirror([...params.plane.normal], [...params.plane.origin]))]);
};

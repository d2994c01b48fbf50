import type { Sketch } from '../../../domain/document';
import { exitDistance } from '../../../domain/preflight';
import { workplaneFrame } from '../../../domain/workplane';
import { scale } from '../../../domain/vec3';
import { applyTool } from './context';
import type { OperationExecutor } from './context';
import { extrudeBetween, revolveSketch } from './sketchSolids';

/** Margin beyond the body so through tools never end on a body face (coplanar booleans are fragile). */
const THROUGH_MARGIN_MM = 1;

export const executeExtrude: OperationExecutor = (context) => {
  const sketch = context.feature.sketch as Sketch;
  const params = context.feature.params as { extent: { kind: string; distance_mm: number; reverse?: boolean }; body: string };
  const d = params.extent.distance_mm;
  const [from, to] = params.extent.kind === 'symmetric' ? [-d / 2, d / 2] : params.extent.reverse ? [-d, 0] : [0, d];
  return applyTool(context, extrudeBetween(context.kernel, context.arena, sketch, from, to), 'add', params.body === 'new_body');
};

export const executeRevolve: OperationExecutor = (context) => {
  const sketch = context.feature.sketch as Sketch;
  const params = context.feature.params as { axis: { origin: number[]; direction: number[] }; angle_deg: number; body: string };
  return applyTool(context, revolveSketch(context.kernel, context.arena, sketch, params.axis, params.angle_deg), 'add', params.body === 'new_body');
};

export const executeCutBlind: OperationExecutor = (context) => {
  const sketch = context.feature.sketch as Sketch;
  const params = context.feature.params as { distance_mm: number; reverse: boolean };
  const [from, to] = params.reverse ? [-params.distance_mm, 0] : [0, params.distance_mm];
  return applyTool(context, extrudeBetween(context.kernel, context.arena, sketch, from, to), 'cut');
};

export const executeCutThrough: OperationExecutor = (context) => {
  const sketch = context.feature.sketch as Sketch;
  const direction = (context.feature.params as { direction: 'normal' | 'reverse' | 'both' }).direction;
  const frame = workplaneFrame(sketch.workplane);
  const box = context.previous?.snapshot.measurements.bbox;
  if (!box) throw new Error('no body to cut');
  // Tool length from the exact bbox: it always exits the body on the far side.
  const ahead = Math.max(0, exitDistance(box, frame.origin, frame.z)) + THROUGH_MARGIN_MM;
  const behind = Math.max(0, exitDistance(box, frame.origin, scale(frame.z, -1))) + THROUGH_MARGIN_MM;
  const [from, to] = direction === 'normal' ? [0, ahead] : direction === 'reverse' ? [-behind, 0] : [-behind, ahead];
  return applyTool(context, extrudeBetween(context.kernel, context.arena, sketch, from, to), 'cut');
};

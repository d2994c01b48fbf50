import type { Shape3D } from 'replicad';
import { cdslError, CdslErrorCode } from '../../../domain/errors';
import { exitDistance } from '../../../domain/preflight';
import { cross, normalize, scale } from '../../../domain/vec3';
import type { Vec3 } from '../../../domain/vec3';
import type { FaceInfo } from '../../../domain/topology';
import { distanceBetween } from '../geometryProbes';
import { applyTool } from './context';
import type { ExecutionContext, OperationExecutor } from './context';

interface HoleParams {
  positions_mm: Vec3[];
  diameter_mm: number;
  extent: { kind: 'blind'; depth_mm: number } | { kind: 'through_all' };
  style: { kind: 'simple' } | { kind: 'counterbore'; diameter_mm: number; depth_mm: number } | { kind: 'countersink'; diameter_mm: number; angle_deg: number };
}

/** Start the tool slightly above the face so the boolean never sees coincident faces. */
const LEAD_IN_MM = 0.5;
const ON_FACE_TOLERANCE_MM = 1e-4;

/** Half-profile (radius, depth below the face) of one hole, revolved around its axis. */
function holeProfile(params: HoleParams, depth: number): [number, number][] {
  const r = params.diameter_mm / 2;
  const top = -LEAD_IN_MM;
  const style = params.style;
  if (style.kind === 'counterbore') {
    const R = style.diameter_mm / 2;
    return [[0, top], [R, top], [R, style.depth_mm], [r, style.depth_mm], [r, depth], [0, depth]];
  }
  if (style.kind === 'countersink') {
    const R = style.diameter_mm / 2;
    const sinkDepth = (R - r) / Math.tan((style.angle_deg * Math.PI) / 360);
    return [[0, top], [R + LEAD_IN_MM * Math.tan((style.angle_deg * Math.PI) / 360), top], [r, sinkDepth], [r, depth], [0, depth]];
  }
  return [[0, top], [r, top], [r, depth], [0, depth]];
}

function holeTool(context: ExecutionContext, position: Vec3, axis: Vec3, profile: [number, number][]): Shape3D {
  const { kernel, arena } = context;
  const helper: Vec3 = Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = normalize(cross(cross(axis, helper), axis)) as Vec3;
  // Plane whose local x is radial and local y is the drilling direction (normal = u × axis).
  const plane = arena.track(new kernel.r.Plane([...position], [...u], [...cross(u, axis)]));
  let pen = kernel.r.draw(profile[0] as [number, number]);
  for (const point of profile.slice(1)) pen = pen.lineTo(point);
  const drawing = arena.track(pen.close());
  const sketch = arena.track(drawing.sketchOnPlane(plane)) as ReturnType<typeof drawing.sketchOnPlane> & object;
  return arena.track(sketch.revolve([...axis], { origin: [...position] }) as Shape3D);
}

/** Engine preflight: each centre lies on the host face itself, not just its plane or bbox. */
function assertOnHostFace(context: ExecutionContext, face: FaceInfo, positions: Vec3[]): void {
  const liveFace = context.previous?.faces[face.index];
  if (!liveFace) throw cdslError(CdslErrorCode.selectorNotFound, 'host face is not in the current body', { token: face.token });
  positions.forEach((p, i) => {
    const vertex = context.arena.track(context.kernel.r.makeVertex([...p]));
    const distance = distanceBetween(context.kernel, vertex, liveFace);
    if (distance > ON_FACE_TOLERANCE_MM) {
      throw cdslError(CdslErrorCode.preconditionFailed, `${context.feature.id} (hole): position ${i + 1} is ${distance.toPrecision(4)} mm from the host face`, {
        feature_id: context.feature.id,
        check: 'hole_positions_on_host_face',
      });
    }
  });
}

export const executeHole: OperationExecutor = (context) => {
  const params = context.feature.params as unknown as HoleParams;
  const face = context.resolved.host_face as FaceInfo;
  assertOnHostFace(context, face, params.positions_mm);
  const axis = scale(face.normal as Vec3, -1);
  const box = context.previous?.snapshot.measurements.bbox;
  if (!box) throw new Error('no body to drill');
  const depth = params.extent.kind === 'blind' ? params.extent.depth_mm : Math.max(...params.positions_mm.map((p) => exitDistance(box, p, axis))) + 1;
  const profile = holeProfile(params, depth);
  const tools = params.positions_mm.map((p) => holeTool(context, p, axis, profile));
  const tool = tools.length === 1 ? (tools[0] as Shape3D) : (context.arena.track(context.kernel.r.makeCompound(tools)) as Shape3D);
  return applyTool(context, tool, 'cut');
};

import { CdslErrorCode } from '../errors';
import { shapePolygon } from '../profileGeometry';
import type { BoundingBox, Measurements } from '../topology';
import { add, cross, dot, normalize, scale, sub } from '../vec3';
import type { Vec3 } from '../vec3';
import { toWorld, workplaneFrame } from '../workplane';
import type { Frame } from '../workplane';
import type { PreflightCheck, PreflightInput, PreflightProblem } from './types';

/** Gaps up to this size count as touching: the kernel fuses touching solids into one. */
const GAP_TOLERANCE_MM = 1e-6;

function corners(box: BoundingBox): Vec3[] {
  const out: Vec3[] = [];
  for (const x of [box.min[0], box.max[0]]) for (const y of [box.min[1], box.max[1]]) for (const z of [box.min[2], box.max[2]]) out.push([x, y, z]);
  return out;
}

function boxOf(points: readonly Vec3[]): BoundingBox {
  const min = [0, 1, 2].map((k) => Math.min(...points.map((p) => p[k] as number))) as unknown as Vec3;
  const max = [0, 1, 2].map((k) => Math.max(...points.map((p) => p[k] as number))) as unknown as Vec3;
  return { min, max };
}

/** Largest gap between two boxes along any axis (≤ 0 when they overlap or touch). */
function boxGap(a: BoundingBox, b: BoundingBox): number {
  return Math.max(...[0, 1, 2].map((k) => Math.max((a.min[k] as number) - (b.max[k] as number), (b.min[k] as number) - (a.max[k] as number))));
}

const fmtBox = (box: BoundingBox): string => `[${box.min.map((v) => v.toFixed(3)).join(', ')}]–[${box.max.map((v) => v.toFixed(3)).join(', ')}]`;

/** Coordinates of a world point in a workplane frame (x, y in the plane, z along the normal). */
const inFrame = (frame: Frame, p: Vec3): Vec3 => {
  const d = sub(p, frame.origin);
  return [dot(d, frame.x), dot(d, frame.y), dot(d, frame.z)];
};

/** Signed extrusion range of a sketch feature along its normal; null = unbounded (through cuts). */
function extrusionRange(input: PreflightInput): [number, number] | null {
  const { feature } = input;
  const params = feature.params ?? {};
  if (feature.atomic_id === 'extrude_cut_through') return null;
  if (feature.atomic_id === 'extrude_cut_blind') {
    const d = params.distance_mm as number;
    return params.reverse === true ? [-d, 0] : [0, d];
  }
  const extent = params.extent as { kind: string; distance_mm: number; reverse?: boolean };
  const d = extent.distance_mm;
  return extent.kind === 'symmetric' ? [-d / 2, d / 2] : extent.reverse ? [-d, 0] : [0, d];
}

/**
 * Gap (mm) between a prism tool (profile × extrusion range) and the body's bbox, measured in the
 * sketch frame where the prism is a box; the body's corners in that frame bound it conservatively,
 * so a positive gap proves the tool misses the body.
 */
function prismGap(input: PreflightInput, box: BoundingBox): { gap: number; toolBox: BoundingBox } | null {
  const sketch = input.feature.sketch;
  if (!sketch) return null;
  const frame = workplaneFrame(sketch.workplane);
  const outline = shapePolygon(sketch.profile.outer).points;
  const range = extrusionRange(input);
  const bodyInFrame = boxOf(corners(box).map((c) => inFrame(frame, c)));
  const [from, to] = range ?? [(bodyInFrame.min[2] as number) - 1, (bodyInFrame.max[2] as number) + 1];
  const toolInFrame = boxOf(outline.flatMap((p) => [[p[0], p[1], from] as Vec3, [p[0], p[1], to] as Vec3]));
  const toolWorld = boxOf(outline.flatMap((p) => [add(toWorld(frame, p), scale(frame.z, from)), add(toWorld(frame, p), scale(frame.z, to))]));
  return { gap: boxGap(toolInFrame, bodyInFrame), toolBox: toolWorld };
}

/** Conservative world bbox of a profile revolved about an axis: each vertex sweeps a circle. */
function revolvedBox(input: PreflightInput): BoundingBox | null {
  const sketch = input.feature.sketch;
  const axis = input.feature.params?.axis as { origin: Vec3; direction: Vec3 } | undefined;
  const direction = axis ? normalize(axis.direction) : null;
  if (!sketch || !axis || !direction) return null;
  const frame = workplaneFrame(sketch.workplane);
  const points: Vec3[] = [];
  for (const p of shapePolygon(sketch.profile.outer).points) {
    const world = toWorld(frame, p);
    const foot = add(axis.origin, scale(direction, dot(sub(world, axis.origin), direction)));
    // 1 % margin: polygons of circles sit slightly inside the true outline.
    const radius = Math.hypot(...sub(world, foot)) * 1.01;
    for (const k of [0, 1, 2]) {
      const reach = radius * Math.sqrt(Math.max(0, 1 - (direction[k] as number) ** 2));
      const offset: Vec3 = [0, 0, 0].map((_, j) => (j === k ? reach : 0)) as unknown as Vec3;
      points.push(add(foot, offset), sub(foot, offset));
    }
  }
  return boxOf(points);
}

/** Cuts: the tool must reach into the body's bbox, else nothing can be removed (CDSL_FEATURE_NO_EFFECT). */
export const cutToolMeetsBody: PreflightCheck = (input) => {
  const box = input.previous?.measurements.bbox;
  const prism = box ? prismGap(input, box) : null;
  if (!box || !prism || prism.gap <= GAP_TOLERANCE_MM) return null;
  return {
    code: CdslErrorCode.featureNoEffect,
    message: `the cut tool ${fmtBox(prism.toolBox)} lies ${prism.gap.toFixed(3)} mm outside the body ${fmtBox(box)}: nothing would be removed`,
    data: { gap_mm: prism.gap, tool_bbox: prism.toolBox, body_bbox: box },
  };
};

/** Joins: the new material must touch the body, else it would be a loose second solid (CDSL_FEATURE_DISJOINT). */
export const joinToolMeetsBody: PreflightCheck = (input) => {
  const box = input.previous?.measurements.bbox;
  if (!box || input.feature.params?.body !== 'join') return null;
  const toolBox = input.feature.atomic_id === 'revolve' ? revolvedBox(input) : (prismGap(input, box)?.toolBox ?? null);
  const gap = input.feature.atomic_id === 'revolve' ? (toolBox ? boxGap(toolBox, box) : 0) : (prismGap(input, box)?.gap ?? 0);
  if (!toolBox || gap <= GAP_TOLERANCE_MM) return null;
  return {
    code: CdslErrorCode.featureDisjoint,
    message: `the joined material ${fmtBox(toolBox)} is ${gap.toFixed(3)} mm away from the body ${fmtBox(box)}; move it onto the body or use body "new_body"`,
    data: { gap_mm: gap, tool_bbox: toolBox, body_bbox: box },
  };
};

/** Corners of the source tool's bbox after each replayed instance's transform (instances 2..n). */
function instanceCorners(input: PreflightInput, box: BoundingBox): Vec3[][] {
  const params = input.feature.params ?? {};
  const base = corners(box);
  if (input.feature.atomic_id === 'pattern_linear') {
    const unit = normalize(params.direction as Vec3);
    if (!unit) return [];
    return Array.from({ length: (params.count as number) - 1 }, (_, i) => base.map((c) => add(c, scale(unit, (params.spacing_mm as number) * (i + 1)))));
  }
  if (input.feature.atomic_id === 'pattern_circular') {
    const axis = params.axis as { origin: Vec3; direction: Vec3 };
    const k = normalize(axis.direction);
    if (!k) return [];
    const total = params.total_angle_deg as number;
    const count = params.count as number;
    const step = ((total >= 360 ? 360 / count : total / (count - 1)) * Math.PI) / 180;
    // Rodrigues' rotation of each corner about the axis.
    const rotate = (p: Vec3, angle: number): Vec3 => {
      const v = sub(p, axis.origin);
      const rotated = add(add(scale(v, Math.cos(angle)), scale(cross(k, v), Math.sin(angle))), scale(k, dot(k, v) * (1 - Math.cos(angle))));
      return add(axis.origin, rotated);
    };
    return Array.from({ length: count - 1 }, (_, i) => base.map((c) => rotate(c, step * (i + 1))));
  }
  const plane = params.plane as { origin: Vec3; normal: Vec3 };
  const n = normalize(plane.normal);
  if (!n) return [];
  return [base.map((c) => sub(c, scale(n, 2 * dot(sub(c, plane.origin), n))))];
}

/** Patterns/mirrors: every instance's tool must reach the body (cut → NO_EFFECT, add → DISJOINT). */
export const replayInstancesMeetBody: PreflightCheck = (input) => {
  const body = input.previous?.measurements.bbox;
  const source = input.resolved.source;
  if (!body || !source?.tool_bbox) return null;
  const instances = instanceCorners(input, source.tool_bbox);
  for (const [i, instance] of instances.entries()) {
    const toolBox = boxOf(instance);
    const gap = boxGap(toolBox, body);
    if (gap <= GAP_TOLERANCE_MM) continue;
    const cut = source.mode === 'cut';
    return {
      code: cut ? CdslErrorCode.featureNoEffect : CdslErrorCode.featureDisjoint,
      message: `instance ${i + 2} of ${source.feature_id} ${fmtBox(toolBox)} lies ${gap.toFixed(3)} mm outside the body ${fmtBox(body)}${cut ? ': it would remove nothing' : ': it would be a loose solid'}`,
      data: { instance: i + 2, gap_mm: gap, tool_bbox: toolBox, body_bbox: body },
    };
  }
  return null;
};

/** What a feature must do to the body's volume, from its contract's effect and the tool mode. */
export type VolumeEffect = 'add' | 'cut' | 'modify';

/**
 * Post-build check run after every feature: a cut must remove volume, an add must add volume and
 * (when it joins) not raise the solid count, a dress-up must change the volume. Null when it did.
 */
export function postBuildEffectProblem(effect: VolumeEffect, joins: boolean, before: Measurements, after: Measurements): PreflightProblem | null {
  const delta = after.volume_mm3 - before.volume_mm3;
  const epsilon = Math.max(1e-6, 1e-9 * before.volume_mm3);
  const data = { volume_before_mm3: before.volume_mm3, volume_after_mm3: after.volume_mm3, solid_count_before: before.solid_count, solid_count_after: after.solid_count, stage: 'post_build' };
  if (effect === 'cut' && delta > -epsilon) return { code: CdslErrorCode.featureNoEffect, message: `the cut removed no material (volume ${before.volume_mm3.toFixed(3)} → ${after.volume_mm3.toFixed(3)} mm³)`, data };
  if (effect === 'add' && delta < epsilon) return { code: CdslErrorCode.featureNoEffect, message: `the feature added no material (volume ${before.volume_mm3.toFixed(3)} → ${after.volume_mm3.toFixed(3)} mm³); it lies inside the body`, data };
  if (effect === 'add' && joins && after.solid_count > before.solid_count) {
    return { code: CdslErrorCode.featureDisjoint, message: `the joined material does not touch the body: ${after.solid_count} solids instead of ${before.solid_count}`, data };
  }
  if (effect === 'modify' && Math.abs(delta) < epsilon) return { code: CdslErrorCode.featureNoEffect, message: 'the operation did not change the body', data };
  return null;
}

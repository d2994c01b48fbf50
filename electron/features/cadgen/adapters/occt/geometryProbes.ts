import type { Face, Edge, AnyShape } from 'replicad';
import type { gp_Ax1, gp_Pnt, gp_Dir } from 'replicad-opencascadejs';
import type { Kernel } from './kernel';
import type { Vec3 } from '../../domain/vec3';
import type { BoundingBox } from '../../domain/topology';

/**
 * Raw OpenCascade probes. Every OCCT object created here is deleted before returning, so
 * callers only manage the replicad wrappers they created themselves.
 */
const xyz = (p: gp_Pnt | gp_Dir): Vec3 => [p.X(), p.Y(), p.Z()];

/** Exact bounding box: optimal algorithm on the B-rep, no triangulation, no tolerance inflation. */
export function exactBoundingBox(kernel: Kernel, shape: AnyShape): BoundingBox {
  const box = new kernel.oc.Bnd_Box();
  try {
    kernel.oc.BRepBndLib.AddOptimal(shape.wrapped, box, false, false);
    const min = box.CornerMin();
    const max = box.CornerMax();
    const result = { min: xyz(min), max: xyz(max) };
    min.delete();
    max.delete();
    return result;
  } finally {
    box.delete();
  }
}

/** Surface area and centre of mass of a face (or any shape's faces). */
export function surfaceProperties(kernel: Kernel, shape: AnyShape): { area: number; centroid: Vec3 } {
  const props = new kernel.oc.GProp_GProps();
  try {
    // Gauss integration without the adaptive-epsilon loop: exact enough on analytic B-rep faces, far faster.
    kernel.oc.BRepGProp.SurfaceProperties(shape.wrapped, props, true, false);
    const centre = props.CentreOfMass();
    const result = { area: props.Mass(), centroid: xyz(centre) };
    centre.delete();
    return result;
  } finally {
    props.delete();
  }
}

export function volumeOf(kernel: Kernel, shape: AnyShape): number {
  const props = new kernel.oc.GProp_GProps();
  try {
    kernel.oc.BRepGProp.VolumeProperties(shape.wrapped, props, true, true, false);
    return props.Mass();
  } finally {
    props.delete();
  }
}

export function edgeLength(kernel: Kernel, edge: Edge): number {
  const props = new kernel.oc.GProp_GProps();
  try {
    kernel.oc.BRepGProp.LinearProperties(edge.wrapped, props, true, false);
    return props.Mass();
  } finally {
    props.delete();
  }
}

/** Point and orientation-aware normal (not unit) at the middle of the face's UV bounds. */
export function midNormal(kernel: Kernel, face: Face): { point: Vec3; normal: Vec3 } {
  const u = new kernel.oc.BRepGProp_Face(face.wrapped, false);
  const point = new kernel.oc.gp_Pnt();
  const normal = new kernel.oc.gp_Vec();
  try {
    const bounds = face.UVBounds;
    u.Normal(0.5 * (bounds.uMin + bounds.uMax), 0.5 * (bounds.vMin + bounds.vMax), point, normal);
    return { point: xyz(point), normal: [normal.X(), normal.Y(), normal.Z()] };
  } finally {
    normal.delete();
    point.delete();
    u.delete();
  }
}

/**
 * Axis and radius of a cylinder, or centre axis and radius of a sphere. The WASM build binds no
 * gp_Cone / gp_Torus, so cones and tori are reported by kind only.
 */
export function surfaceAxis(kernel: Kernel, face: Face, kind: 'cylinder' | 'sphere'): { origin: Vec3; direction: Vec3; radius: number } {
  const adaptor = new kernel.oc.BRepAdaptor_Surface(face.wrapped, true);
  try {
    const read = (surface: { Axis(): gp_Ax1; delete(): void }, radius: number): { origin: Vec3; direction: Vec3; radius: number } => {
      const axis = surface.Axis();
      const location = axis.Location();
      const direction = axis.Direction();
      const result = { origin: xyz(location), direction: xyz(direction), radius };
      location.delete();
      direction.delete();
      axis.delete();
      surface.delete();
      return result;
    };
    if (kind === 'cylinder') {
      const s = adaptor.Cylinder();
      return read(s, s.Radius());
    }
    const sphere = adaptor.Sphere();
    const position = sphere.Position();
    const wrapped = { Axis: () => position.Axis(), delete: () => (position.delete(), sphere.delete()) };
    return read(wrapped, sphere.Radius());
  } finally {
    adaptor.delete();
  }
}

/** Centre and radius of a circular edge. */
export function circleOf(kernel: Kernel, edge: Edge): { centre: Vec3; radius: number } {
  const adaptor = new kernel.oc.BRepAdaptor_Curve(edge.wrapped);
  try {
    const circle = adaptor.Circle();
    const location = circle.Location();
    const result = { centre: xyz(location), radius: circle.Radius() };
    location.delete();
    circle.delete();
    return result;
  } finally {
    adaptor.delete();
  }
}

/** OpenCascade's validity checker (BRepCheck_Analyzer with geometric controls). */
export function isValidShape(kernel: Kernel, shape: AnyShape): boolean {
  const analyzer = new kernel.oc.BRepCheck_Analyzer(shape.wrapped, true, false, false);
  try {
    return analyzer.IsValid();
  } finally {
    analyzer.delete();
  }
}

/** Minimum distance between two shapes (e.g. a hole centre vertex and its host face). */
export function distanceBetween(kernel: Kernel, a: AnyShape, b: AnyShape): number {
  const tool = new kernel.oc.BRepExtrema_DistShapeShape(a.wrapped, b.wrapped);
  try {
    return tool.Value();
  } finally {
    tool.delete();
  }
}

import type { Vec3 } from '../vec3';

/** Which orthographic view a dimension belongs in. */
export type DimView = 'front' | 'top' | 'side';

/** A bilateral tolerance (mm) shown after a dimension's value. */
export interface PlannedTolerance {
  upper: number;
  lower: number;
}

/** A dimension the sheet must carry, in model terms (placement is the composer's). */
export type PlannedDimension = (
  | { id: string; kind: 'extent'; axis: 0 | 1 | 2; value: number; view: DimView }
  | { id: string; kind: 'diameter'; centre: Vec3; axis: Vec3; radius: number; value: number; count: number; view: DimView; pattern?: { pcd: number; centre: Vec3 } }
  | { id: string; kind: 'pcd'; centre: Vec3; axis: Vec3; value: number; view: DimView }
  /** A fillet's radius: the leader from `centre` along `outward` through the middle of its arc. */
  | { id: string; kind: 'radius'; centre: Vec3; axis: Vec3; radius: number; value: number; outward: Vec3; concave: boolean; view: DimView }
  /** The angle (degrees) at `vertex` between the two rays' points, inside the material. */
  | { id: string; kind: 'angle'; vertex: Vec3; rays: [Vec3, Vec3]; value: number; view: DimView }
  /** A hole centre located along model `axis` from a datum edge point or the previous centre of its chain. */
  | { id: string; kind: 'location'; axis: 0 | 1 | 2; from: Vec3; to: Vec3; value: number; view: DimView }
) & { tolerance?: PlannedTolerance };

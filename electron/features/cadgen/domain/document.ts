import { z } from 'zod';
import type { Profile } from './profileGeometry';
import type { Vec3 } from './vec3';

/** Document format version; bump on any incompatible change of fragments or semantics. */
export const CDSL_VERSION = '3.0';

/** Feature ids are server-assigned and positional (F1, F2, ...), so authors cannot invent them. */
export const featureIdFor = (index: number): string => `F${index + 1}`;

const atomicIdSchema = z.string().regex(/^[a-z][a-z0-9_]{1,40}$/);

/**
 * One feature as stored in a document. `sketch` and `params` are validated against the
 * operation contract (closed JSON Schema, ajv) — the envelope only fixes which keys may exist.
 */
export const cdslFeatureSchema = z
  .object({
    id: z.string().regex(/^F[1-9][0-9]{0,3}$/),
    atomic_id: atomicIdSchema,
    sketch: z.unknown().optional(),
    params: z.unknown().optional(),
  })
  .strict();

/** The versioned document envelope (units mm, ordered features, at most 500). */
export const cdslDocumentSchema = z
  .object({
    cdsl_version: z.literal(CDSL_VERSION),
    units: z.literal('mm'),
    name: z.string().min(1).max(120),
    features: z.array(cdslFeatureSchema).min(1).max(500),
  })
  .strict();

export interface Workplane {
  origin: Vec3;
  normal: Vec3;
  x_dir: Vec3;
}

export interface Sketch {
  workplane: Workplane;
  profile: Profile;
}

/** A feature after contract validation: sketch/params have their contract's shape. */
export interface CdslFeature {
  id: string;
  atomic_id: string;
  sketch?: Sketch;
  params?: Record<string, unknown>;
}

export interface CdslDocument {
  cdsl_version: typeof CDSL_VERSION;
  units: 'mm';
  name: string;
  features: CdslFeature[];
}

/** What an author submits for one action: the sketch (when the contract wants one) and the feature. */
export const cdslFragmentSchema = z
  .object({
    sketch: z.unknown().optional(),
    feature: z.object({ atomic_id: atomicIdSchema, params: z.unknown().optional() }).strict(),
  })
  .strict();
export type CdslFragment = z.infer<typeof cdslFragmentSchema>;

import { z } from 'zod';
import { appErrorSchema } from '../../errors';

/**
 * Generate-area channels: open, validate and build CDSL documents on the OpenCascade runtime,
 * then fetch the published artifacts (GLB, STEP, line drawings, measurements) by content id.
 *
 * Error codes (AppError): CDSL_SCHEMA_INVALID (not JSON, or the document/claims do not match
 * their closed schemas; `data.source` is "document" or "claims" and `data.issues` lists
 * `{path, message}` with JSON-pointer paths), CDSL_CONTRACT_UNKNOWN (an atomic_id the registry
 * does not offer), CDSL_RUNTIME_TIMEOUT / CDSL_RUNTIME_CRASHED (retryable: the kernel worker was
 * replaced), CDSL_RUNTIME_UNAVAILABLE (the kernel could not start or the app is closing),
 * CDSL_EXAMPLE_NOT_FOUND, CDSL_ARTIFACT_KIND_MISMATCH, CDSL_ARTIFACT_TOO_LARGE,
 * STORE_ARTIFACT_NOT_FOUND, STORE_ARTIFACT_ID_INVALID, STORE_IO.
 */

/** Largest CDSL document / claims text accepted over IPC (a 500-feature document fits easily). */
export const MAX_CDSL_JSON_CHARS = 2_000_000;
/** Largest artifact returned by cadgenGetArtifact (raw bytes, before base64). */
export const MAX_ARTIFACT_TRANSFER_BYTES = 16 * 1024 * 1024;

export const artifactKindSchema = z.enum(['glb', 'step', 'svg', 'png', 'measurements']);
/** Views are named by the side they look from ("left" looks from −X); which appear depends on the projection method. */
export const projectionViewNameSchema = z.enum(['front', 'top', 'left', 'right', 'iso']);
/** first_angle (GB/T 4458.1, ISO method E: front, top below it, left view to its right) or third_angle (top above, right view to the right). */
export const projectionMethodSchema = z.enum(['first_angle', 'third_angle']);
export const claimStatusSchema = z.enum(['pass', 'pending', 'fail', 'unavailable']);

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);
const vec3Schema = z.tuple([z.number(), z.number(), z.number()]);

/** One bundled example document with its claims file (raw JSON text, as shipped). */
export const cdslExampleSchema = z
  .object({
    name: z.string(),
    documentJson: z.string(),
    claimsJson: z.string().nullable(),
    featureCount: z.number().int().nonnegative(),
    operations: z.array(z.string()),
  })
  .strict();

/** A document that passed validation: its name and the ordered features. */
export const cdslValidationSchema = z
  .object({
    name: z.string(),
    features: z.array(z.object({ id: z.string(), atomic_id: z.string() }).strict()),
    claimCount: z.number().int().nonnegative(),
  })
  .strict();

export const featureReportSchema = z
  .object({
    id: z.string(),
    atomic_id: z.string(),
    status: z.enum(['built', 'failed', 'skipped']),
    duration_ms: z.number().optional(),
    solid_count: z.number().optional(),
    volume_mm3: z.number().optional(),
    error: appErrorSchema.optional(),
  })
  .strict();

export const claimResultSchema = z
  .object({
    id: z.string(),
    kind: z.string(),
    description: z.string().optional(),
    deterministic: z.boolean(),
    status: claimStatusSchema,
    message: z.string(),
    /** Measured values, tolerances and entity tokens the verifier looked at. */
    evidence: z.record(z.string(), z.unknown()),
  })
  .strict();

export const measurementsSchema = z
  .object({
    solid_count: z.number(),
    volume_mm3: z.number(),
    area_mm2: z.number(),
    bbox: z.object({ min: vec3Schema, max: vec3Schema }).strict(),
  })
  .strict();

/** Content ids (sha256 in the artifact store) of one build's published files. */
export const buildArtifactsSchema = z
  .object({
    glb: sha256Schema,
    step: sha256Schema,
    measurements: sha256Schema,
    views: z.array(z.object({ view: projectionViewNameSchema, svg: sha256Schema, png: sha256Schema }).strict()),
    /** How the orthographic views are arranged on a sheet. */
    projectionMethod: projectionMethodSchema,
    /** The manifest (input hash, engine version, sha256 of every file) as stored JSON. */
    manifest: sha256Schema,
    glbBytes: z.number().int().nonnegative(),
  })
  .strict();

export const buildResultSchema = z
  .object({
    /** Every feature built and no deterministic claim failed. */
    ok: z.boolean(),
    documentName: z.string(),
    engineVersion: z.string(),
    features: z.array(featureReportSchema),
    measurements: measurementsSchema.nullable(),
    /** Counts by entity kind (faces, edges, planes, cylinders, ...). */
    topology: z.record(z.string(), z.number()).nullable(),
    claims: z.array(claimResultSchema),
    /** Null when a feature failed (nothing is published for a broken part). */
    artifacts: buildArtifactsSchema.nullable(),
    timingsMs: z.record(z.string(), z.number()),
  })
  .strict();

const jsonText = z.string().min(1).max(MAX_CDSL_JSON_CHARS);

export const cadgenChannels = {
  /** The example documents shipped in resources/examples/cdsl, each with its claims. */
  cadgenListExamples: { input: z.object({}).strict(), output: z.array(cdslExampleSchema) },
  /**
   * Validates a document (and optional claims) against the envelope and every operation
   * contract without building. Errors: CDSL_SCHEMA_INVALID (with data.issues), CDSL_CONTRACT_UNKNOWN.
   */
  cadgenValidate: {
    input: z.object({ documentJson: jsonText, claimsJson: jsonText.optional() }).strict(),
    output: cdslValidationSchema,
  },
  /**
   * Rebuilds the document on the OpenCascade worker (started on first use, then reused),
   * evaluates the claims (final stage) and stores STEP/GLB/drawings/measurements in the
   * artifact store. Emits `progress` events with `taskId` (phases validate, kernel, build,
   * artifacts, store, done). Geometry failures are in the result, not thrown. Errors:
   * CDSL_SCHEMA_INVALID, CDSL_CONTRACT_UNKNOWN, CDSL_RUNTIME_*, STORE_IO.
   */
  cadgenBuild: {
    input: z
      .object({ documentJson: jsonText, claimsJson: jsonText.optional(), taskId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), projectionMethod: projectionMethodSchema.optional() })
      .strict(),
    output: buildResultSchema,
  },
  /**
   * One stored artifact's bytes (base64). `kind` must match the content (a GLB id asked for as
   * STEP is refused). Errors: STORE_ARTIFACT_ID_INVALID, STORE_ARTIFACT_NOT_FOUND,
   * CDSL_ARTIFACT_KIND_MISMATCH, CDSL_ARTIFACT_TOO_LARGE (over MAX_ARTIFACT_TRANSFER_BYTES).
   */
  cadgenGetArtifact: {
    input: z.object({ id: z.string().max(64), kind: artifactKindSchema }).strict(),
    output: z
      .object({ id: sha256Schema, kind: artifactKindSchema, mediaType: z.string(), size: z.number().int().nonnegative(), base64: z.string() })
      .strict(),
  },
} as const;

export type ArtifactKind = z.output<typeof artifactKindSchema>;
export type ProjectionMethodName = z.output<typeof projectionMethodSchema>;
export type CdslExample = z.output<typeof cdslExampleSchema>;
export type CdslValidation = z.output<typeof cdslValidationSchema>;
export type CadgenBuildResult = z.output<typeof buildResultSchema>;
export type CadgenClaimResult = z.output<typeof claimResultSchema>;
export type CadgenBuildArtifacts = z.output<typeof buildArtifactsSchema>;

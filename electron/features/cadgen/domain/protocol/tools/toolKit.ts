import { z } from 'zod';
import type { JsonSchema } from '../../contracts/schemaParts';
import type { FieldIssue } from '../errors';

/** Every tool name of seed §4.7 plus get_claim_schema (the claim vocabulary read on demand, issue 27); nothing else is ever offered to a model. */
export const TOOL_NAMES = [
  'submit_requirements_draft_batch',
  'patch_requirements_draft',
  'finalize_requirements_draft',
  'get_claim_schema',
  'review_requirements',
  'propose_next_action',
  'inspect_topology',
  'get_cdsl_operation_contract',
  'measure',
  'render_view',
  'submit_cdsl_fragment',
  'record_geometry_conclusion',
  'rollback_checkpoint',
  'review_candidate',
  'complete_task',
  'review_final',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** Read-only tools: they never change the task state (seed §6.6). */
export const OBSERVATION_TOOLS: readonly ToolName[] = ['get_claim_schema', 'inspect_topology', 'get_cdsl_operation_contract', 'measure', 'render_view'];

export type ToolValidation<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/**
 * A tool as exposed for one turn: its JSON Schema (sent to the model) and the canonical
 * validator of the parsed arguments (run on JSON.parse of the raw string, never on a provider's
 * parsed object). Both are built from the same narrowed enums.
 */
export interface ExposedTool<T = unknown> {
  name: ToolName;
  role: 'author' | 'reviewer';
  description: string;
  parameters: JsonSchema;
  /**
   * The full closed schema `validate` enforces when the offered `parameters` are a compact view
   * of it (the claim vocabulary: kinds offered as an enum, each `expected` read on demand).
   * Absent: `parameters` is the whole schema.
   */
  canonicalParameters?: JsonSchema;
  validate(value: unknown): ToolValidation<T>;
}

/** Checks a value against a JSON Schema (ajv in the application layer); empty = valid. */
export type SchemaCheck = (schema: JsonSchema, value: unknown, path: string) => FieldIssue[];

/** Short visible texts: bounded so no tool can smuggle a document (seed §4.2). */
export const shortText = (max: number): z.ZodString => z.string().min(1).max(max);

/** A zod enum over the ids valid right now; callers never expose a tool whose enum would be empty. */
export function idEnum(values: readonly string[]): z.ZodType<string> {
  if (values.length === 0) throw new Error('idEnum needs at least one value');
  return z.enum(values as [string, ...string[]]);
}

export const issuesOf = (error: z.ZodError): FieldIssue[] => error.issues.slice(0, 50).map((i) => ({ path: `/${i.path.map(String).join('/')}`, message: i.message }));

/**
 * JSON Schema 2020-12 of a zod schema (strict objects → additionalProperties false), without the
 * `$schema` marker: tool parameters are 2020-12 by contract and the marker costs every request bytes.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _marker, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** Wraps a zod schema (plus optional extra checks) as an exposed tool. */
export function zodTool<T>(
  name: ToolName,
  role: 'author' | 'reviewer',
  description: string,
  schema: z.ZodType<T>,
  options: { patchSchema?: (s: JsonSchema) => JsonSchema; extraChecks?: (value: T) => FieldIssue[] } = {},
): ExposedTool<T> {
  const base = toJsonSchema(schema);
  return {
    name,
    role,
    description,
    parameters: options.patchSchema ? options.patchSchema(base) : base,
    validate(value) {
      const parsed = schema.safeParse(value);
      if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error) };
      const extra = options.extraChecks?.(parsed.data) ?? [];
      return extra.length > 0 ? { ok: false, issues: extra } : { ok: true, value: parsed.data };
    },
  };
}

export const MAX_RAW_ARGUMENT_BYTES = 64 * 1024;
export const MAX_JSON_DEPTH = 24;

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_JSON_DEPTH) return depth;
  if (Array.isArray(value)) return value.reduce<number>((m, v) => Math.max(m, depthOf(v, depth + 1)), depth + 1);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce<number>((m, v) => Math.max(m, depthOf(v, depth + 1)), depth + 1);
  return depth;
}

/**
 * Canonical validation of one tool call from its raw arguments string: byte cap, JSON parse,
 * depth cap, then the tool's own schema. Providers' parsed objects are never trusted.
 */
export function validateRawArguments<T>(tool: ExposedTool<T>, raw: string): ToolValidation<T> {
  const bytes = new TextEncoder().encode(raw).byteLength;
  if (bytes > MAX_RAW_ARGUMENT_BYTES) return { ok: false, issues: [{ path: '', message: `arguments are ${bytes} bytes; the limit is ${MAX_RAW_ARGUMENT_BYTES}` }] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, issues: [{ path: '', message: 'arguments are not valid JSON' }] };
  }
  if (depthOf(value) > MAX_JSON_DEPTH) return { ok: false, issues: [{ path: '', message: `arguments nest deeper than ${MAX_JSON_DEPTH} levels` }] };
  return tool.validate(value);
}

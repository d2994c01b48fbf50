import { tokenPattern } from '../topology';
import type { TokenKind } from '../topology';

/** JSON Schema 2020-12 object as plain data (the registry exposes these to authors verbatim). */
export type JsonSchema = { [key: string]: unknown };

/** Runtime safe coordinate range (mm): finite, and far beyond any part the kernel should see. */
export const COORD_LIMIT_MM = 100_000;

export const num = (minimum: number, maximum: number, description?: string): JsonSchema => ({
  type: 'number',
  minimum,
  maximum,
  ...(description ? { description } : {}),
});

/** A positive length (mm); the description is left out where the property name says it all. */
export const length = (description?: string, maximum = 10_000): JsonSchema => ({ type: 'number', exclusiveMinimum: 0, maximum, ...(description ? { description } : {}) });

export const coord = num(-COORD_LIMIT_MM, COORD_LIMIT_MM);

/** Fixed-length coordinate tuples: `items` with equal min/max counts says what prefixItems + items:false said, in half the bytes authors are sent. */
export const point2: JsonSchema = { type: 'array', items: coord, minItems: 2, maxItems: 2 };
export const vec3: JsonSchema = { type: 'array', items: coord, minItems: 3, maxItems: 3 };

/** Coordinate tuples an author schema may repeat many times (a sketch has a dozen point2s): kept once under `$defs` when repeated. */
const SHARED_PARTS: Record<string, JsonSchema> = { point2, vec3 };

/**
 * `schema` with every repeated shared part (by value: point2, vec3) replaced by a local
 * `#/$defs/<name>` reference and defined once in its root `$defs`. A part used once stays
 * written out (its reference and definition together would be longer). Validation is unchanged:
 * the reference resolves to the very same schema.
 */
export function referSharedParts(schema: JsonSchema): JsonSchema {
  const spelled = new Map(Object.entries(SHARED_PARTS).map(([name, part]) => [JSON.stringify(part), name]));
  const uses = new Map<string, number>();
  const count = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(count);
    if (node === null || typeof node !== 'object') return;
    const name = spelled.get(JSON.stringify(node));
    if (name) uses.set(name, (uses.get(name) ?? 0) + 1);
    else Object.values(node).forEach(count);
  };
  count(schema);
  const shared = new Set([...uses].filter(([, n]) => n > 1).map(([name]) => name));
  if (shared.size === 0) return schema;
  const refer = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(refer);
    if (node === null || typeof node !== 'object') return node;
    const name = spelled.get(JSON.stringify(node));
    if (name && shared.has(name)) return { $ref: `#/$defs/${name}` };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, refer(v)]));
  };
  const referred = refer(schema) as JsonSchema;
  const defs = { ...((referred.$defs as Record<string, JsonSchema> | undefined) ?? {}), ...Object.fromEntries([...shared].map((name) => [name, SHARED_PARTS[name]!])) };
  return { ...referred, $defs: defs };
}

/** Closed object: every property listed, additionalProperties false. */
export function closedObject(properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties), description?: string): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...(description ? { description } : {}) };
}

export const token = (kind: TokenKind, description: string): JsonSchema => ({ type: 'string', pattern: tokenPattern(kind), description });

export const tokenList = (kind: TokenKind, minItems: number, maxItems: number, description: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string', pattern: tokenPattern(kind) },
  minItems,
  maxItems,
  uniqueItems: true,
  description,
});

export const axis3: JsonSchema = closedObject({ origin: vec3, direction: vec3 }, ['origin', 'direction'], 'Axis in model coordinates (mm); direction need not be unit length but must be non-zero.');
export const plane3: JsonSchema = closedObject({ origin: vec3, normal: vec3 }, ['origin', 'normal'], 'Plane through origin with the given non-zero normal.');
export const bodyMode: JsonSchema = { type: 'string', enum: ['join', 'new_body'], description: 'join fuses with the existing body; new_body adds a separate solid.' };

/** The node a local `#/$defs/<name>` reference names (the only kind of `$ref` the product writes). */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  const match = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
  const defs = root.$defs as Record<string, JsonSchema> | undefined;
  return match && defs ? defs[match[1]!] : undefined;
}

/**
 * `schema` with every local `#/$defs/<name>` reference replaced by its definition and `$defs`
 * dropped: for consumers that nest a schema under another root (conformance probes) or have no
 * reference support (strict dialect compilers, null-for-optional restore). Throws on a reference
 * it cannot resolve or a recursion deeper than 32 (the product writes neither).
 */
export function inlineLocalRefs(schema: JsonSchema): JsonSchema {
  const inline = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => inline(n, depth));
    if (node === null || typeof node !== 'object') return node;
    const { $ref: ref, $defs: _defs, ...rest } = node as JsonSchema;
    const target = typeof ref === 'string' ? resolveLocalRef(schema, ref) : undefined;
    if (typeof ref === 'string' && (!target || depth > 32)) throw new Error(`cannot inline the schema reference ${ref}`);
    const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, depth)]));
    return target ? { ...(inline(target, depth + 1) as JsonSchema), ...own } : own;
  };
  return inline(schema, 0) as JsonSchema;
}


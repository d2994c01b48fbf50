import { resolveLocalRef } from '../contracts/schemaParts';
import type { JsonSchema } from '../contracts/schemaParts';

/**
 * A small valid instance of a closed JSON Schema (first const/enum/oneOf branch, required
 * properties only, minimum counts, in-range numbers). Conformance checks ask a model to send
 * exactly this through the tool, so every offered schema is exercised without hand-written
 * examples. Returns undefined for constructs it cannot satisfy (e.g. `not`).
 */
export function schemaExample(schema: JsonSchema): unknown {
  return example(schema, 0, false, schema);
}

/**
 * Examples that together exercise a whole schema: the required-only instance first, then one
 * instance per union position k (every oneOf/anyOf takes its branch k, or its last) with every
 * optional property filled and every array holding at least one item. So each branch of each
 * union (every claim kind) and each optional field appears at least once. Duplicates are dropped.
 */
export function schemaExamples(schema: JsonSchema): unknown[] {
  const out = [example(schema, 0, false, schema), ...Array.from({ length: widestUnion(schema) }, (_, k) => example(schema, k, true, schema))].filter((v) => v !== undefined);
  return out.filter((v, i) => out.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)) === i);
}

/** The largest number of branches of any union in `schema` (1 when it has none). */
function widestUnion(schema: unknown): number {
  if (Array.isArray(schema)) return Math.max(1, ...schema.map(widestUnion));
  if (typeof schema !== 'object' || schema === null) return 1;
  const own = ['oneOf', 'anyOf'].map((k) => ((schema as JsonSchema)[k] as unknown[] | undefined)?.length ?? 1);
  return Math.max(...own, ...Object.values(schema).map(widestUnion));
}

/** `root`: the document whose local `#/$defs/<name>` references `schema` may use. */
function example(schema: JsonSchema, branch: number, full: boolean, root: JsonSchema): unknown {
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target ? example(target, branch, full, root) : undefined;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[full ? Math.min(branch, schema.enum.length - 1) : 0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches?.length) return example(branches[Math.min(branch, branches.length - 1)] as JsonSchema, branch, full, root);
  }
  if (schema.not !== undefined) return undefined;
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required as string[] | undefined) ?? [];
      const out: Record<string, unknown> = {};
      for (const name of full ? Object.keys(properties) : required) {
        const value = properties[name] ? example(properties[name] as JsonSchema, branch, full, root) : undefined;
        if (value === undefined && required.includes(name)) return undefined;
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'array': {
      const prefix = (schema.prefixItems as JsonSchema[] | undefined) ?? [];
      const least = Math.max((schema.minItems as number | undefined) ?? 0, prefix.length, full && schema.items ? 1 : 0);
      const count = Math.min(least, (schema.maxItems as number | undefined) ?? least);
      const items = Array.from({ length: count }, (_, i) => example((prefix[i] ?? schema.items) as JsonSchema, branch, full, root));
      return items.some((v) => v === undefined) ? undefined : items;
    }
    case 'number':
    case 'integer': {
      const min = (schema.minimum as number | undefined) ?? ((schema.exclusiveMinimum as number | undefined) !== undefined ? (schema.exclusiveMinimum as number) + 1 : 0);
      const max = (schema.maximum as number | undefined) ?? (schema.exclusiveMaximum as number | undefined) ?? min + 1;
      const value = min <= 0 && max >= 0 && schema.exclusiveMinimum === undefined ? 0 : Math.min(min, max);
      return schema.type === 'integer' ? Math.ceil(value) : value;
    }
    case 'string':
      return 'x'.repeat(Math.max(1, (schema.minLength as number | undefined) ?? 1));
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

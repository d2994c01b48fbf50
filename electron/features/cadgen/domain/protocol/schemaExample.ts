import { resolveLocalRef } from '../contracts/schemaParts';
import type { JsonSchema } from '../contracts/schemaParts';

/**
 * A small valid instance of a closed JSON Schema (first const/enum/oneOf branch, required
 * properties only, minimum counts, in-range numbers). Conformance checks ask a model to send
 * exactly this through the tool, so every offered schema is exercised without hand-written
 * examples. Returns undefined for constructs it cannot satisfy (e.g. `not`).
 */
export function schemaExample(schema: JsonSchema, root: JsonSchema = schema): unknown {
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target ? schemaExample(target, root) : undefined;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key] as JsonSchema[] | undefined;
    if (branches?.length) return schemaExample(branches[0] as JsonSchema, root);
  }
  if (schema.not !== undefined) return undefined;
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const out: Record<string, unknown> = {};
      for (const name of (schema.required as string[] | undefined) ?? []) {
        const value = properties[name] ? schemaExample(properties[name] as JsonSchema, root) : undefined;
        if (value === undefined) return undefined;
        out[name] = value;
      }
      return out;
    }
    case 'array': {
      const prefix = (schema.prefixItems as JsonSchema[] | undefined) ?? [];
      const count = Math.max((schema.minItems as number | undefined) ?? 0, prefix.length);
      const items = Array.from({ length: count }, (_, i) => schemaExample((prefix[i] ?? schema.items) as JsonSchema, root));
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

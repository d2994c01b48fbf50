import { arrayItemsOf, branchesOf, compileDefinitions, describeDropped, isDefinitionsKey, propertiesOf, type SchemaNode } from './schemaNode';

/*
 * Anthropic strict tool use (`strict: true` on a tool; "JSON Schema limitations" of the
 * Structured Outputs guide): supported are the basic types, enum of primitives, const, anyOf,
 * allOf, local $ref/$defs, required, additionalProperties: false (required on every object),
 * string formats and minItems of 0 or 1. Not supported: recursive schemas, numeric constraints
 * (minimum, maximum, multipleOf), string constraints (minLength, maxLength), array constraints
 * beyond minItems 0/1. Optional properties stay optional (no null mapping needed). Dropped
 * constraints are written into the description, as Anthropic's SDKs do, and the canonical
 * validator still enforces them on the answer.
 */
const NUMERIC = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const DROPPED = new Set([...NUMERIC, 'minLength', 'maxLength', 'pattern', 'maxItems', 'uniqueItems']);

/** Compiles a canonical JSON Schema to Anthropic's strict tool-use subset. */
export function compileAnthropicStrict(schema: SchemaNode): SchemaNode {
  const branches = branchesOf(schema);
  if (branches) return { ...(schema.description ? { description: schema.description } : {}), anyOf: branches.map(compileAnthropicStrict) };
  const out: SchemaNode = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'additionalProperties' || key === 'prefixItems' || key === 'items' || key === 'description' || key === '$schema') continue;
    if (isDefinitionsKey(key)) out[key] = compileDefinitions(value, compileAnthropicStrict);
    else if (DROPPED.has(key)) dropped.push(`${key} ${String(value)}`);
    else if (key === 'minItems' && typeof value === 'number' && value > 1) {
      dropped.push(`minItems ${value}`);
      out.minItems = 1;
    } else out[key] = value;
  }
  if (schema.type === 'object') {
    out.properties = Object.fromEntries(Object.entries(propertiesOf(schema)).map(([name, node]) => [name, compileAnthropicStrict(node)]));
    out.additionalProperties = false;
  }
  if (schema.type === 'array') {
    const { items, tupleLength } = arrayItemsOf(schema);
    if (tupleLength !== undefined) dropped.push(`exactly ${tupleLength} items`);
    if (items) out.items = compileAnthropicStrict(items);
  }
  const description = describeDropped(schema.description, dropped);
  if (description) out.description = description;
  return out;
}

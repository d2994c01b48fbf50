import { arrayItemsOf, branchesOf, describeDropped, propertiesOf, type SchemaNode } from './schemaNode';

/*
 * Gemini `responseSchema` (the Schema object of the Gemini / Vertex AI API: "a select subset of
 * an OpenAPI 3.0 schema object"): type (STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT), format,
 * title, description, nullable, enum (string values), properties, required, propertyOrdering,
 * items, minItems, maxItems, minimum, maximum, anyOf. There is no const, oneOf,
 * additionalProperties, exclusive bounds, tuples or string length. The compiler maps oneOf →
 * anyOf, a string const → a one-value enum, a numeric const → minimum = maximum, exclusive
 * bounds → inclusive ones (noted in the description), and keeps property order explicit.
 */
const TYPES: Record<string, string> = { string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT' };

/** Compiles a canonical JSON Schema to Gemini's response-schema subset. */
export function compileGeminiSchema(schema: SchemaNode): SchemaNode {
  const branches = branchesOf(schema);
  if (branches) return { ...(schema.description ? { description: schema.description } : {}), anyOf: branches.map(compileGeminiSchema) };
  const out: SchemaNode = {};
  const dropped: string[] = [];
  if ('const' in schema) {
    const value = schema.const;
    if (typeof value === 'string') Object.assign(out, { type: 'STRING', enum: [value] });
    else if (typeof value === 'number') Object.assign(out, { type: Number.isInteger(value) ? 'INTEGER' : 'NUMBER', minimum: value, maximum: value });
    else if (typeof value === 'boolean') {
      out.type = 'BOOLEAN';
      dropped.push(`must be ${String(value)}`);
    }
  }
  const type = schema.type;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  const concrete = types.filter((t) => t !== 'null');
  if (concrete[0] && TYPES[concrete[0]]) out.type = TYPES[concrete[0]];
  if (types.includes('null')) out.nullable = true;
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.format === 'string') out.format = schema.format;
  if (Array.isArray(schema.enum)) {
    out.enum = schema.enum.map(String);
    if (!out.type) out.type = 'STRING';
  }
  for (const key of ['minimum', 'maximum', 'minItems', 'maxItems'] as const) if (typeof schema[key] === 'number') out[key] = schema[key];
  if (typeof schema.exclusiveMinimum === 'number') {
    out.minimum = schema.exclusiveMinimum;
    dropped.push(`> ${schema.exclusiveMinimum}`);
  }
  if (typeof schema.exclusiveMaximum === 'number') {
    out.maximum = schema.exclusiveMaximum;
    dropped.push(`< ${schema.exclusiveMaximum}`);
  }
  for (const key of ['minLength', 'maxLength', 'pattern', 'uniqueItems', 'multipleOf'] as const) if (key in schema) dropped.push(`${key} ${String(schema[key])}`);
  if (schema.type === 'object') {
    const properties = propertiesOf(schema);
    out.properties = Object.fromEntries(Object.entries(properties).map(([name, node]) => [name, compileGeminiSchema(node)]));
    if (Array.isArray(schema.required)) out.required = schema.required;
    out.propertyOrdering = Object.keys(properties);
  }
  if (schema.type === 'array') {
    const { items } = arrayItemsOf(schema);
    if (items) out.items = compileGeminiSchema(items);
  }
  const description = describeDropped(schema.description, dropped);
  if (description) out.description = description;
  return out;
}

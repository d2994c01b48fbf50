import { arrayItemsOf, branchesOf, compileDefinitions, describeDropped, isDefinitionsKey, isNode, propertiesOf, requiredOf, type SchemaNode } from './schemaNode';

/*
 * OpenAI Structured Outputs, strict mode ("Supported schemas" in the Structured Outputs guide):
 * - the root is an object, never anyOf;
 * - every object sets additionalProperties: false and lists every property in required; an
 *   optional field is expressed as a union with null;
 * - supported: string (pattern, format), number/integer (minimum, maximum, exclusiveMinimum,
 *   exclusiveMaximum, multipleOf), boolean, object, array (items, minItems, maxItems), enum,
 *   const, anyOf, $ref/$defs, description/title; not allOf, not, if/then/else,
 *   dependentRequired, dependentSchemas (nor oneOf, prefixItems, uniqueItems, minLength/maxLength,
 *   which are not on the list);
 * - limits: at most 5,000 object properties in total, 10 levels of object nesting, 1,000 enum
 *   values, 120,000 characters of property names + enum/const values, and 15,000 characters for
 *   the values of one enum with more than 250 of them.
 */
export const OPENAI_STRICT_LIMITS = { properties: 5000, depth: 10, enumValues: 1000, stringChars: 120_000, bigEnumValues: 250, bigEnumChars: 15_000 } as const;

const SUPPORTED = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const', 'description', 'title', '$ref', '$defs', 'definitions',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

/** Makes a compiled node also accept null (an optional field in strict mode). */
function nullable(node: SchemaNode): SchemaNode {
  if (Array.isArray(node.anyOf)) return (node.anyOf as SchemaNode[]).some((b) => b.type === 'null') ? node : { ...node, anyOf: [...(node.anyOf as SchemaNode[]), { type: 'null' }] };
  return { anyOf: [node, { type: 'null' }] };
}

/**
 * Compiles a canonical (closed, draft 2020-12) JSON Schema to OpenAI's strict subset: oneOf →
 * anyOf, optional properties → required + nullable, tuples → items with fixed min/maxItems,
 * unsupported string/array keywords moved into the description. The canonical validator stays the
 * boundary: the model's nulls for absent optionals are removed with `restoreOptionals` first.
 */
export function compileOpenAiStrict(schema: SchemaNode): SchemaNode {
  const branches = branchesOf(schema);
  if (branches) return { ...(schema.description ? { description: schema.description } : {}), anyOf: branches.map(compileOpenAiStrict) };
  const out: SchemaNode = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'required' || key === 'additionalProperties' || key === 'prefixItems' || key === 'items' || key === 'description') continue;
    if (isDefinitionsKey(key)) out[key] = compileDefinitions(value, compileOpenAiStrict);
    else if (key === 'minLength' || key === 'maxLength' || key === 'uniqueItems') dropped.push(`${key} ${String(value)}`);
    else if (key !== '$schema') out[key] = value;
  }
  if (schema.type === 'object') {
    const required = new Set(requiredOf(schema));
    const properties = Object.fromEntries(Object.entries(propertiesOf(schema)).map(([name, node]) => [name, required.has(name) ? compileOpenAiStrict(node) : nullable(compileOpenAiStrict(node))]));
    Object.assign(out, { properties, required: Object.keys(properties), additionalProperties: false });
  }
  if (schema.type === 'array') {
    const { items } = arrayItemsOf(schema);
    if (items) out.items = compileOpenAiStrict(items);
  }
  const description = describeDropped(schema.description, dropped);
  if (description) out.description = description;
  return out;
}

/** A `$ref` OpenAI can follow: the root itself or a definition the root carries. */
function resolvesLocally(root: SchemaNode, ref: unknown): boolean {
  if (ref === '#') return true;
  const match = typeof ref === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
  return match !== null && isNode(root[match[1]!]) && isNode((root[match[1]!] as SchemaNode)[match[2]!]);
}

/**
 * The reasons OpenAI would refuse `schema` as a strict function schema (empty = accepted), worded
 * like its 400 "Invalid schema" messages. The scripted provider's strict mode enforces these.
 */
export function openAiStrictIssues(schema: SchemaNode): string[] {
  const issues: string[] = [];
  let properties = 0;
  let enumValues = 0;
  let chars = 0;
  if (schema.type !== 'object' || Array.isArray(schema.anyOf)) issues.push("schema must be a JSON Schema of 'type: \"object\"', got 'type: \"" + String(schema.type) + "\"'.");
  const walk = (node: unknown, context: string, depth: number): void => {
    if (!isNode(node)) return;
    for (const key of Object.keys(node)) if (!SUPPORTED.has(key)) issues.push(`In context=(${context}), '${key}' is not permitted.`);
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      const enumChars = node.enum.reduce<number>((sum, v) => sum + String(v).length, 0);
      chars += enumChars;
      if (node.enum.length > OPENAI_STRICT_LIMITS.bigEnumValues && enumChars > OPENAI_STRICT_LIMITS.bigEnumChars) issues.push(`In context=(${context}), an enum with more than ${OPENAI_STRICT_LIMITS.bigEnumValues} values may have at most ${OPENAI_STRICT_LIMITS.bigEnumChars} characters.`);
    }
    if ('const' in node) chars += String(node.const).length;
    if ('$ref' in node && !resolvesLocally(schema, node.$ref)) issues.push(`In context=(${context}), reference ${String(node.$ref)} can't be resolved.`);
    const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
    if (isObject) {
      if (depth > OPENAI_STRICT_LIMITS.depth) issues.push(`In context=(${context}), ${depth} levels of nesting exceeds limit of ${OPENAI_STRICT_LIMITS.depth}.`);
      if (node.additionalProperties !== false) issues.push(`In context=(${context}), 'additionalProperties' is required to be supplied and to be false.`);
      const names = Object.keys(propertiesOf(node));
      const missing = names.filter((name) => !requiredOf(node).includes(name));
      if (missing.length > 0) issues.push(`In context=(${context}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`);
      properties += names.length;
      for (const name of names) {
        chars += name.length;
        walk(propertiesOf(node)[name], `${context}, 'properties', '${name}'`, depth + 1);
      }
    }
    if (isNode(node.items)) walk(node.items, `${context}, 'items'`, depth);
    if (Array.isArray(node.anyOf)) (node.anyOf as unknown[]).forEach((branch, i) => walk(branch, `${context}, 'anyOf', '${i}'`, depth));
    for (const defs of ['$defs', 'definitions'] as const) if (isNode(node[defs])) for (const [name, def] of Object.entries(node[defs] as SchemaNode)) walk(def, `${context}, '${defs}', '${name}'`, depth);
  };
  walk(schema, "'root'", 1);
  if (properties > OPENAI_STRICT_LIMITS.properties) issues.push(`Expected at most ${OPENAI_STRICT_LIMITS.properties} object properties in total, but received ${properties}.`);
  if (enumValues > OPENAI_STRICT_LIMITS.enumValues) issues.push(`Expected at most ${OPENAI_STRICT_LIMITS.enumValues} enum values in total within a single schema when using structured outputs, but received ${enumValues}.`);
  if (chars > OPENAI_STRICT_LIMITS.stringChars) issues.push(`Expected at most ${OPENAI_STRICT_LIMITS.stringChars} characters of property names and enum/const values, but received ${chars}.`);
  return issues;
}

import { resolveLocalRef } from './contracts/schemaParts';
import type { JsonSchema } from './contracts/schemaParts';

const COMBINATORS = ['oneOf', 'anyOf', 'allOf'] as const;

/**
 * Lists every place where `schema` would accept unlisted data: objects without
 * additionalProperties:false or without properties, arrays without item schemas, numbers
 * without both bounds (a range keeps them finite and within runtime limits), untyped nodes.
 * An empty list means the schema is closed all the way down.
 */
export function openSchemaPaths(schema: unknown, path = '$', root: unknown = schema): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${path}: not a schema object`];
  const node = schema as JsonSchema;
  if (typeof node.$ref === 'string') {
    // Local definitions are checked where they are used (the product's $defs are not recursive).
    const target = resolveLocalRef(root as JsonSchema, node.$ref);
    return target ? openSchemaPaths(target, path, root) : [`${path}: unresolved $ref ${node.$ref}`];
  }
  const problems: string[] = [];
  for (const key of COMBINATORS) {
    const branches = node[key];
    if (branches === undefined) continue;
    if (!Array.isArray(branches) || branches.length === 0) problems.push(`${path}.${key}: empty`);
    else branches.forEach((branch, i) => problems.push(...openSchemaPaths(branch, `${path}.${key}[${i}]`, root)));
  }
  if ('const' in node || 'enum' in node) return problems;
  const type = node.type;
  if (type === undefined) {
    if (!COMBINATORS.some((key) => key in node)) problems.push(`${path}: no type`);
    return problems;
  }
  if (type === 'object') {
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties is not false`);
    const properties = node.properties;
    if (typeof properties !== 'object' || properties === null) problems.push(`${path}: object without properties`);
    else for (const [name, child] of Object.entries(properties)) problems.push(...openSchemaPaths(child, `${path}.${name}`, root));
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    for (const name of required) if (!properties || !(name in (properties as object))) problems.push(`${path}: required "${name}" is not a property`);
  } else if (type === 'array') {
    const prefix = node.prefixItems;
    if (Array.isArray(prefix)) {
      if (node.items !== false) problems.push(`${path}: prefixItems without items:false`);
      prefix.forEach((child, i) => problems.push(...openSchemaPaths(child, `${path}[${i}]`, root)));
    } else if (node.items === undefined) problems.push(`${path}: array without items schema`);
    else problems.push(...openSchemaPaths(node.items, `${path}[]`, root));
    if (typeof node.maxItems !== 'number') problems.push(`${path}: array without maxItems`);
  } else if (type === 'number' || type === 'integer') {
    const hasLower = typeof node.minimum === 'number' || typeof node.exclusiveMinimum === 'number';
    const hasUpper = typeof node.maximum === 'number' || typeof node.exclusiveMaximum === 'number';
    if (!hasLower || !hasUpper) problems.push(`${path}: number without a finite range`);
  } else if (type === 'string') {
    if (typeof node.maxLength !== 'number' && typeof node.pattern !== 'string') problems.push(`${path}: string without maxLength or pattern`);
  } else if (type !== 'boolean') problems.push(`${path}: unsupported type ${String(type)}`);
  return problems;
}

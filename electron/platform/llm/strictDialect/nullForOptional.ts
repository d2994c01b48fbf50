import { branchesOf, isNode, propertiesOf, requiredOf, type SchemaNode } from './schemaNode';

const accepts = (schema: SchemaNode, value: unknown): boolean => {
  if ('const' in schema) return JSON.stringify(schema.const) === JSON.stringify(value);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return true;
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  return types.some((t) => t === actual || (t === 'integer' && actual === 'number'));
};

/** The union branch `value` belongs to: type and every const-valued property must match. */
function branchFor(branches: SchemaNode[], value: unknown): SchemaNode | undefined {
  return branches.find((branch) => {
    if (!accepts(branch, value)) return false;
    if (!isNode(value) || branch.type !== 'object') return true;
    const properties = propertiesOf(branch);
    return Object.keys(value).every((k) => k in properties) && Object.entries(properties).every(([name, node]) => !('const' in node) || (value[name] !== undefined && value[name] !== null && JSON.stringify(node.const) === JSON.stringify(value[name])) || (value[name] === undefined && !requiredOf(branch).includes(name)));
  });
}

/** Walks `value` along the canonical `schema`, rewriting each object with `onObject`. */
function mapObjects(schema: SchemaNode, value: unknown, onObject: (schema: SchemaNode, value: Record<string, unknown>) => Record<string, unknown>): unknown {
  const branches = branchesOf(schema);
  if (branches) {
    const branch = branchFor(branches, value);
    return branch ? mapObjects(branch, value, onObject) : value;
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as SchemaNode[]) : [];
    return value.map((item, i) => {
      const itemSchema = prefix[i] ?? schema.items;
      return isNode(itemSchema) ? mapObjects(itemSchema, item, onObject) : item;
    });
  }
  if (!isNode(value) || schema.type !== 'object') return value;
  const properties = propertiesOf(schema);
  const mapped = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, properties[name] ? mapObjects(properties[name], item, onObject) : item]));
  return onObject(schema, mapped);
}

/**
 * Undoes OpenAI strict mode's null-for-optional on an answer, before canonical validation: an
 * optional property (not in the canonical `required`) whose canonical schema does not accept null
 * and that came back null is removed. Every other value is kept as sent, so the canonical
 * validator still judges the model's own output.
 */
export function restoreOptionals(schema: SchemaNode, value: unknown): unknown {
  return mapObjects(schema, value, (node, object) => {
    const required = new Set(requiredOf(node));
    const properties = propertiesOf(node);
    return Object.fromEntries(Object.entries(object).filter(([name, item]) => !(item === null && !required.has(name) && properties[name] && !accepts(properties[name], null))));
  });
}

/** The strict-mode wire form of a canonical instance: every absent optional property as null. */
export function toStrictInstance(schema: SchemaNode, value: unknown): unknown {
  return mapObjects(schema, value, (node, object) => {
    const out = { ...object };
    for (const name of Object.keys(propertiesOf(node))) if (!(name in out)) out[name] = null;
    return out;
  });
}

/** A JSON Schema node as the dialect compilers read and write it. */
export type SchemaNode = Record<string, unknown>;

export const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The required names of an object node (empty when absent). */
export const requiredOf = (node: SchemaNode): string[] => (Array.isArray(node.required) ? (node.required as string[]) : []);

/** The properties of an object node (empty when absent). */
export const propertiesOf = (node: SchemaNode): Record<string, SchemaNode> => (isNode(node.properties) ? (node.properties as Record<string, SchemaNode>) : {});

/** The branches of a union node (`oneOf` or `anyOf`), or undefined. */
export const branchesOf = (node: SchemaNode): SchemaNode[] | undefined => {
  const branches = (node.oneOf ?? node.anyOf) as unknown;
  return Array.isArray(branches) ? (branches as SchemaNode[]) : undefined;
};

/**
 * A tuple (`prefixItems`) as one `items` schema: the shared item schema when every position is
 * the same, else their union. Provider subsets have no tuples; the length survives as
 * minItems/maxItems and the canonical validator still checks each position.
 */
export function tupleItems(prefix: SchemaNode[]): SchemaNode {
  const distinct = prefix.filter((item, i) => prefix.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i);
  return distinct.length === 1 ? (distinct[0] as SchemaNode) : { anyOf: distinct };
}

/**
 * The one `items` schema an array node compiles to (a tuple through tupleItems) and, for a tuple,
 * how many positions it had; both undefined for an array without item schema.
 */
export function arrayItemsOf(node: SchemaNode): { items?: SchemaNode; tupleLength?: number } {
  if (Array.isArray(node.prefixItems)) return { items: tupleItems(node.prefixItems as SchemaNode[]), tupleLength: node.prefixItems.length };
  return isNode(node.items) ? { items: node.items } : {};
}

/** Appends the constraints a dialect cannot express to the description, so the model still reads them. */
export function describeDropped(description: unknown, dropped: string[]): string | undefined {
  const base = typeof description === 'string' ? description : '';
  if (dropped.length === 0) return base || undefined;
  return `${base}${base ? ' ' : ''}(${dropped.join(', ')})`;
}

/** True for the keys that hold a node's local definitions (targets of `#/$defs/<name>` references). */
export const isDefinitionsKey = (key: string): key is '$defs' | 'definitions' => key === '$defs' || key === 'definitions';

/** Local definitions compiled by a dialect: a reference then lands on a schema of that dialect, not on the canonical one. */
export function compileDefinitions(value: unknown, compile: (node: SchemaNode) => SchemaNode): SchemaNode {
  return Object.fromEntries(Object.entries(isNode(value) ? value : {}).map(([name, node]) => [name, isNode(node) ? compile(node) : node]));
}

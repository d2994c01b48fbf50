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

/** Appends the constraints a dialect cannot express to the description, so the model still reads them. */
export function describeDropped(description: unknown, dropped: string[]): string | undefined {
  const base = typeof description === 'string' ? description : '';
  if (dropped.length === 0) return base || undefined;
  return `${base}${base ? ' ' : ''}(${dropped.join(', ')})`;
}

/**
 * Tool input schemas every MCP client can compile. zod writes tuples as draft 2020-12
 * `prefixItems` + `items: false`; draft-07 validators (ajv's default, which MCP Inspector and
 * many clients use) do not know `prefixItems` and read the bare `items: false` as "no items
 * allowed", so a bbox `[x1, y1, x2, y2]` is rejected or the schema is refused in strict mode.
 * A tuple whose positions all share one schema is the same thing as a fixed-length array of it.
 */

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One schema for all tuple positions: the common one, or `anyOf` of the distinct ones. */
function itemSchema(positions: Json[]): Json {
  const distinct = [...new Map(positions.map((p) => [JSON.stringify(p), p])).values()];
  return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
}

/** Rewrites tuples to fixed-length arrays and drops the draft marker, recursively (a new object). */
export function portableSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(portableSchema);
  if (!isObject(schema)) return schema;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    out[key] = portableSchema(value);
  }
  const prefix = out.prefixItems;
  if (Array.isArray(prefix)) {
    delete out.prefixItems;
    // `items: false` closed the tuple; maxItems says the same in every draft.
    if (out.items === false || out.items === undefined) {
      out.items = itemSchema(prefix);
      out.minItems ??= prefix.length;
      out.maxItems ??= prefix.length;
    } else {
      out.items = itemSchema([...prefix, out.items]);
      out.minItems ??= prefix.length;
    }
  }
  return out;
}

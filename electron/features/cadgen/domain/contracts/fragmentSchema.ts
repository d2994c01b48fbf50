import type { TopologySnapshot } from '../topology';
import { closedObject, referSharedParts } from './schemaParts';
import type { JsonSchema } from './schemaParts';
import { SKETCH_DEFS, sketchSchema } from './sketchSchema';
import type { OperationContract } from './types';

/** Replaces the token pattern of every selector/reference slot by the enum of current tokens. */
function bindTokens(contract: OperationContract, snapshot: TopologySnapshot | null): JsonSchema {
  const properties = { ...(contract.author_params_schema.properties as Record<string, JsonSchema>) };
  const tokensOf = (kind: 'face' | 'edge' | 'feature'): string[] =>
    [...new Set((kind === 'face' ? snapshot?.faces : kind === 'edge' ? snapshot?.edges : snapshot?.features)?.map((e) => e.token) ?? [])];
  // JSON Schema forbids empty enums; with no candidates the slot accepts nothing at all.
  const oneOfTokens = (tokens: string[]): JsonSchema => (tokens.length > 0 ? { type: 'string', enum: tokens } : { not: {}, description: 'no selectable entity in the current snapshot' });
  for (const slot of contract.selector_policy) {
    const tokenEnum = oneOfTokens(tokensOf(slot.token_kind));
    const current = properties[slot.slot] as JsonSchema;
    const { pattern: _pattern, type: _type, ...rest } = current;
    properties[slot.slot] = current.type === 'array' ? { ...current, items: tokenEnum } : { ...rest, ...tokenEnum };
  }
  if (contract.reference_policy.mode === 'feature_token') {
    const allowed = new Set(contract.reference_policy.allowed_atomic_ids);
    const tokens = snapshot?.features.filter((f) => allowed.has(f.atomic_id)).map((f) => f.token) ?? [];
    properties[contract.reference_policy.slot] = oneOfTokens(tokens);
  }
  return { ...contract.author_params_schema, properties };
}

/**
 * The dynamic JSON Schema of one author fragment for `contract`: const atomic_id, sketch exactly
 * when the contract requires it, closed params, selector/reference slots restricted to tokens
 * of `snapshot` (no snapshot → empty enums: nothing can be selected yet). A sketch's shared
 * parts and repeated coordinate tuples live in root `$defs`; a schema embedding this one must
 * hoist them to its own root.
 */
export function fragmentSchema(contract: OperationContract, snapshot: TopologySnapshot | null): JsonSchema {
  const featureProperties: Record<string, JsonSchema> = { atomic_id: { const: contract.atomic_id } };
  if (contract.fragment_shape.params !== 'forbidden') {
    featureProperties.params = contract.fragment_shape.params === 'required_empty' ? closedObject({}) : bindTokens(contract, snapshot);
  }
  const fragmentProperties: Record<string, JsonSchema> = { feature: closedObject(featureProperties) };
  const sketch = contract.fragment_shape.sketch === 'required';
  if (sketch) fragmentProperties.sketch = sketchSchema;
  return referSharedParts({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: `cdsl_fragment_${contract.atomic_id}`, ...closedObject(fragmentProperties), ...(sketch ? { $defs: SKETCH_DEFS } : {}) });
}

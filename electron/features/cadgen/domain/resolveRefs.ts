import type { OperationContract } from './contracts/types';
import type { CdslFeature } from './document';
import { cdslError, CdslErrorCode } from './errors';
import type { ResolvedRefs } from './preflight';
import { resolveToken } from './selectors';
import type { TopologySnapshot } from './topology';

const asList = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : []);

/**
 * Resolves every selector/reference slot of a feature against the previous revision's snapshot
 * and returns what the server injects. Token errors propagate (stale / not found / ambiguous);
 * a reference to a feature the contract does not allow is CDSL_PRECONDITION_FAILED.
 */
export function resolveRefs(contract: OperationContract, feature: CdslFeature, previous: TopologySnapshot | null): ResolvedRefs {
  const params = feature.params ?? {};
  const resolved: ResolvedRefs = {};
  for (const slot of contract.selector_policy) {
    const tokens = asList(params[slot.slot]);
    const entities = tokens.map((token) => resolveToken(previous, token, slot.token_kind, `${feature.id}.params.${slot.slot}`));
    if (slot.token_kind === 'face' && slot.max_items === 1) resolved.host_face = entities[0] as ResolvedRefs['host_face'];
    else if (slot.token_kind === 'face') resolved.faces = entities as ResolvedRefs['faces'];
    else resolved.edges = entities as ResolvedRefs['edges'];
  }
  const reference = contract.reference_policy;
  if (reference.mode === 'feature_token') {
    const source = resolveToken(previous, String(params[reference.slot]), 'feature', `${feature.id}.params.${reference.slot}`);
    if (!reference.allowed_atomic_ids.includes(source.atomic_id)) {
      throw cdslError(CdslErrorCode.preconditionFailed, `${feature.id}: ${contract.atomic_id} cannot replay a ${source.atomic_id} feature`, {
        feature_id: feature.id,
        check: 'reference_policy',
        allowed: reference.allowed_atomic_ids,
      });
    }
    resolved.source = source;
  }
  return resolved;
}

import { cdslError, CdslErrorCode } from './errors';
import { parseToken } from './topology';
import type { EdgeInfo, FaceInfo, FeatureRefInfo, TokenKind, TopologySnapshot } from './topology';

type EntityOf<K extends TokenKind> = K extends 'face' ? FaceInfo : K extends 'edge' ? EdgeInfo : FeatureRefInfo;

/**
 * Resolves one opaque token against the snapshot it must belong to. Never "takes the first":
 * - CDSL_SCHEMA_INVALID when the token is malformed or of another kind than the slot requires;
 * - CDSL_STALE_SNAPSHOT when it was minted for another revision (or no snapshot exists yet);
 * - CDSL_SELECTOR_NOT_FOUND when no entity carries it;
 * - CDSL_SELECTOR_AMBIGUOUS when several entities share it (identical geometric signature).
 */
export function resolveToken<K extends TokenKind>(snapshot: TopologySnapshot | null, token: string, kind: K, slot: string): EntityOf<K> {
  const parsed = parseToken(token);
  if (!parsed) throw cdslError(CdslErrorCode.schemaInvalid, `${slot}: "${token}" is not a selector token`, { slot, token });
  if (parsed.kind !== kind) {
    throw cdslError(CdslErrorCode.schemaInvalid, `${slot}: expects a ${kind} token, got a ${parsed.kind} token`, { slot, token, expected: kind });
  }
  if (!snapshot || !snapshot.snapshot_id.startsWith(parsed.snapshotTag)) {
    throw cdslError(CdslErrorCode.staleSnapshot, `${slot}: token ${token} belongs to another snapshot; observe the current topology again`, {
      slot,
      token,
      current_snapshot: snapshot?.snapshot_id ?? null,
    });
  }
  const pool: ReadonlyArray<{ token: string }> = kind === 'face' ? snapshot.faces : kind === 'edge' ? snapshot.edges : snapshot.features;
  const matches = pool.filter((entity) => entity.token === token);
  if (matches.length === 0) throw cdslError(CdslErrorCode.selectorNotFound, `${slot}: no ${kind} with token ${token} in snapshot`, { slot, token });
  if (matches.length > 1) {
    throw cdslError(CdslErrorCode.selectorAmbiguous, `${slot}: token ${token} matches ${matches.length} ${kind}s`, { slot, token, count: matches.length });
  }
  return matches[0] as EntityOf<K>;
}

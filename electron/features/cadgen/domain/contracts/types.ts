import type { JsonSchema } from './schemaParts';
import type { TokenKind } from '../topology';

/** Where a token-valued author field sits and what the resolver injects for it. */
export interface SelectorSlot {
  /** Author param holding the token(s), e.g. "host_face_token". */
  slot: string;
  token_kind: Exclude<TokenKind, 'feature'>;
  min_items: number;
  max_items: number;
  /** Server-owned param the resolver fills with the resolved entity, e.g. "params.host_face". */
  inject_path: string;
}

export type ReferencePolicy =
  | { mode: 'none' }
  | { mode: 'feature_token'; slot: string; allowed_atomic_ids: string[]; inject_path: string };

/**
 * One atomic operation offered to authors. Every member is required; the registry integrity
 * check refuses entries with open schemas, unknown preflights/verifiers or inconsistent slots.
 */
export interface OperationContract {
  atomic_id: string;
  contract_version: '3.0';
  summary: string;
  fragment_shape: { sketch: 'required' | 'forbidden'; params: 'required_object' | 'required_empty' | 'forbidden'; selector_tokens: 'required' | 'forbidden' };
  /** Closed JSON Schema 2020-12 of `params` as the author writes it. */
  author_params_schema: JsonSchema;
  /** Empty when the operation has no selector slot. */
  selector_policy: SelectorSlot[];
  reference_policy: ReferencePolicy;
  server_injected_paths: string[];
  /** Names from the preflight registry, run in order before any geometry is built. */
  semantic_preflight: string[];
  /** Claim kinds whose evidence this operation typically produces. */
  candidate_verifiers: string[];
  /** What the operation does to the body; patterns/mirror replay add/cut tools only. */
  body_effect: 'add' | 'cut' | 'modify' | 'replay';
}

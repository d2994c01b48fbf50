import { openSchemaPaths } from '../closedSchema';
import { PREFLIGHT_CHECKS } from '../preflight';
import { chamferContract } from './chamfer';
import { extrudeContract } from './extrude';
import { extrudeCutBlindContract } from './extrudeCutBlind';
import { extrudeCutThroughContract } from './extrudeCutThrough';
import { filletContract } from './fillet';
import { holeContract } from './hole';
import { mirrorContract } from './mirror';
import { patternCircularContract } from './patternCircular';
import { patternLinearContract } from './patternLinear';
import { revolveContract } from './revolve';
import { shellContract } from './shell';
import { tokenPattern } from '../topology';
import type { JsonSchema } from './schemaParts';
import type { OperationContract } from './types';

export const ALL_CONTRACTS: readonly OperationContract[] = [
  extrudeContract,
  revolveContract,
  extrudeCutBlindContract,
  extrudeCutThroughContract,
  holeContract,
  filletContract,
  chamferContract,
  shellContract,
  patternLinearContract,
  patternCircularContract,
  mirrorContract,
];

function propertySchema(contract: OperationContract, name: string): JsonSchema | undefined {
  return (contract.author_params_schema.properties as Record<string, JsonSchema> | undefined)?.[name];
}

/**
 * Everything wrong with one contract (empty = complete). Checks: closed author schema, known
 * preflights and verifiers, selector/reference slots that exist in the author schema with the
 * right token pattern and counts, injected paths that authors cannot write, consistent shape.
 */
export function contractProblems(contract: OperationContract, verifierKinds: ReadonlySet<string>, executableIds: ReadonlySet<string>): string[] {
  const id = contract.atomic_id;
  const problems = openSchemaPaths(contract.author_params_schema).map((p) => `${id}: author_params_schema ${p}`);
  if (contract.contract_version !== '3.0') problems.push(`${id}: contract_version must be 3.0`);
  if (!executableIds.has(id)) problems.push(`${id}: the runtime has no executor for this operation`);
  for (const name of contract.semantic_preflight) if (!(name in PREFLIGHT_CHECKS)) problems.push(`${id}: unknown preflight ${name}`);
  if (contract.candidate_verifiers.length === 0) problems.push(`${id}: binds no candidate verifier`);
  for (const kind of contract.candidate_verifiers) if (!verifierKinds.has(kind)) problems.push(`${id}: unknown verifier ${kind}`);
  if ((contract.fragment_shape.selector_tokens === 'required') !== contract.selector_policy.length > 0) problems.push(`${id}: selector_tokens shape disagrees with selector_policy`);
  const injected = new Set<string>();
  for (const slot of contract.selector_policy) {
    const schema = propertySchema(contract, slot.slot);
    const pattern = tokenPattern(slot.token_kind);
    const single = slot.max_items === 1 && schema?.type === 'string' && schema.pattern === pattern;
    const list = schema?.type === 'array' && (schema.items as JsonSchema | undefined)?.pattern === pattern && schema.minItems === slot.min_items && schema.maxItems === slot.max_items;
    if (!single && !list) problems.push(`${id}: selector slot ${slot.slot} does not match its author schema`);
    injected.add(slot.inject_path);
  }
  if (contract.reference_policy.mode === 'feature_token') {
    const schema = propertySchema(contract, contract.reference_policy.slot);
    if (schema?.pattern !== tokenPattern('feature')) problems.push(`${id}: reference slot ${contract.reference_policy.slot} is not a feature token`);
    injected.add(contract.reference_policy.inject_path);
  }
  const declared = new Set(contract.server_injected_paths);
  if (declared.size !== injected.size || [...injected].some((p) => !declared.has(p))) problems.push(`${id}: server_injected_paths disagree with selector/reference policy`);
  for (const path of contract.server_injected_paths) {
    if (propertySchema(contract, path.replace(/^params\./, ''))) problems.push(`${id}: injected path ${path} is writable by the author`);
  }
  return problems;
}

/** The offered registry: complete contracts only, with the problems of the rejected ones. */
export function buildContractRegistry(
  candidates: readonly OperationContract[],
  verifierKinds: ReadonlySet<string>,
  executableIds: ReadonlySet<string>,
): { offered: ReadonlyMap<string, OperationContract>; rejected: { atomic_id: string; problems: string[] }[] } {
  const offered = new Map<string, OperationContract>();
  const rejected: { atomic_id: string; problems: string[] }[] = [];
  for (const contract of candidates) {
    const problems = contractProblems(contract, verifierKinds, executableIds);
    if (offered.has(contract.atomic_id)) problems.push(`${contract.atomic_id}: duplicate atomic_id`);
    if (problems.length > 0) rejected.push({ atomic_id: contract.atomic_id, problems });
    else offered.set(contract.atomic_id, contract);
  }
  return { offered, rejected };
}

import { AppError } from '../../../../shared/errors';
import { buildContractRegistry, ALL_CONTRACTS } from '../domain/contracts/registry';
import { fragmentSchema } from '../domain/contracts/fragmentSchema';
import { sketchDocument } from '../domain/contracts/sketchSchema';
import type { OperationContract } from '../domain/contracts/types';
import type { JsonSchema } from '../domain/contracts/schemaParts';
import { cdslDocumentSchema, cdslFragmentSchema, featureIdFor } from '../domain/document';
import type { CdslDocument, CdslFeature } from '../domain/document';
import { cdslError, CdslErrorCode } from '../domain/errors';
import type { TopologySnapshot } from '../domain/topology';
import { resolveRefs } from '../domain/resolveRefs';
import { ALL_VERIFIERS, verifierIntegrityProblems } from '../domain/verifiers/registry';
import type { ClaimVerifier } from '../domain/verifiers/types';
import { SchemaValidator } from './schemaValidator';
import type { SchemaIssue } from './schemaValidator';

/** Contracts and verifiers that passed the integrity check, plus validation entry points. */
export interface CdslCatalog {
  /** Offered operations only (complete contracts with a runtime executor). */
  contracts: ReadonlyMap<string, OperationContract>;
  /** Contracts refused by the integrity check, with reasons (never offered to authors). */
  rejected: { atomic_id: string; problems: string[] }[];
  verifiers: ReadonlyMap<string, ClaimVerifier>;
  validator: SchemaValidator;
  /** Validates a raw document (envelope + each feature against its contract). Throws CDSL_SCHEMA_INVALID / CDSL_CONTRACT_UNKNOWN. */
  validateDocument(raw: unknown): CdslDocument;
  /** Validates one raw author fragment against the dynamic schema bound to `snapshot`; returns the feature with its assigned id. */
  validateFragment(raw: unknown, atomicId: string, snapshot: TopologySnapshot | null, position: number): CdslFeature;
  /** The dynamic JSON Schema authors receive for `atomicId` at the revision `snapshot`. */
  fragmentSchema(atomicId: string, snapshot: TopologySnapshot | null): JsonSchema;
}

function contractOrThrow(contracts: ReadonlyMap<string, OperationContract>, atomicId: string, where: string): OperationContract {
  const contract = contracts.get(atomicId);
  if (!contract) throw cdslError(CdslErrorCode.contractUnknown, `${where}: "${atomicId}" is not an offered operation`, { atomic_id: atomicId, offered: [...contracts.keys()] });
  return contract;
}

const invalid = (message: string, issues: SchemaIssue[]): AppError => cdslError(CdslErrorCode.schemaInvalid, message, { issues: issues.slice(0, 50) });

/**
 * Builds the catalog and runs the registry integrity check (closed schemas, ajv-compilable,
 * known preflights/verifiers, executors present). Throws CDSL_SCHEMA_INVALID when the verifier
 * registry itself is broken, since no claim could then be trusted.
 */
export function createCdslCatalog(executableIds: ReadonlySet<string>): CdslCatalog {
  const validator = new SchemaValidator();
  const verifierProblems = verifierIntegrityProblems(ALL_VERIFIERS);
  for (const verifier of ALL_VERIFIERS) {
    try {
      validator.compile(verifier.expected_schema);
    } catch (error) {
      verifierProblems.push(`${verifier.kind}: expected_schema does not compile (${(error as Error).message})`);
    }
  }
  if (verifierProblems.length > 0) throw cdslError(CdslErrorCode.schemaInvalid, 'verifier registry failed its integrity check', { problems: verifierProblems });
  const verifiers = new Map(ALL_VERIFIERS.map((v) => [v.kind, v]));
  const registry = buildContractRegistry(ALL_CONTRACTS, new Set(verifiers.keys()), executableIds);
  const contracts = new Map(registry.offered);
  const rejected = [...registry.rejected];
  for (const contract of registry.offered.values()) {
    try {
      validator.compile(contract.author_params_schema);
      validator.compile(fragmentSchema(contract, null));
    } catch (error) {
      contracts.delete(contract.atomic_id);
      rejected.push({ atomic_id: contract.atomic_id, problems: [`schema does not compile: ${(error as Error).message}`] });
    }
  }
  validator.compile(sketchDocument);

  function featureIssues(feature: CdslFeature, contract: OperationContract): SchemaIssue[] {
    const where = `/features/${feature.id}`;
    const issues: SchemaIssue[] = [];
    const shape = contract.fragment_shape;
    if (shape.sketch === 'required' && feature.sketch === undefined) issues.push({ path: where, message: 'sketch is required' });
    if (shape.sketch === 'forbidden' && feature.sketch !== undefined) issues.push({ path: where, message: `sketch is forbidden for ${contract.atomic_id}` });
    if (shape.sketch === 'required' && feature.sketch !== undefined) issues.push(...validator.issues(sketchDocument, feature.sketch, `${where}/sketch`));
    if (shape.params === 'forbidden' && feature.params !== undefined) issues.push({ path: where, message: `params are forbidden for ${contract.atomic_id}` });
    else if (shape.params !== 'forbidden') {
      if (feature.params === undefined) issues.push({ path: where, message: 'params are required' });
      else issues.push(...validator.issues(contract.author_params_schema, feature.params, `${where}/params`));
    }
    return issues;
  }

  return {
    contracts,
    rejected,
    verifiers,
    validator,
    validateDocument(raw) {
      const envelope = cdslDocumentSchema.safeParse(raw);
      if (!envelope.success) throw invalid('the document envelope is invalid', envelope.error.issues.map((i) => ({ path: `/${i.path.join('/')}`, message: i.message })));
      const issues: SchemaIssue[] = [];
      envelope.data.features.forEach((feature, index) => {
        if (feature.id !== featureIdFor(index)) issues.push({ path: `/features/${index}/id`, message: `feature ids are positional: expected ${featureIdFor(index)}` });
        const contract = contractOrThrow(contracts, feature.atomic_id, `/features/${index}`);
        issues.push(...featureIssues(feature as CdslFeature, contract));
      });
      if (issues.length > 0) throw invalid(`${issues.length} schema issue(s) in the document`, issues);
      return envelope.data as CdslDocument;
    },
    validateFragment(raw, atomicId, snapshot, position) {
      const contract = contractOrThrow(contracts, atomicId, 'fragment');
      const envelope = cdslFragmentSchema.safeParse(raw);
      if (!envelope.success) throw invalid('the fragment envelope is invalid', envelope.error.issues.map((i) => ({ path: `/${i.path.join('/')}`, message: i.message })));
      const { sketch, feature } = envelope.data;
      const candidate = { id: featureIdFor(position), atomic_id: feature.atomic_id, ...(sketch !== undefined ? { sketch } : {}), ...(feature.params !== undefined ? { params: feature.params } : {}) } as CdslFeature;
      const issues = validator.issues(fragmentSchema(contract, snapshot), raw, '');
      if (issues.length > 0) {
        // A token outside the enum: report why precisely (stale, unknown, wrong kind) when the shape allows it.
        if (featureIssues(candidate, contract).length === 0) resolveRefs(contract, candidate, snapshot);
        throw invalid(`the ${atomicId} fragment does not match its contract`, issues);
      }
      return candidate;
    },
    fragmentSchema(atomicId, snapshot) {
      return fragmentSchema(contractOrThrow(contracts, atomicId, 'fragment schema'), snapshot);
    },
  };
}

import { canonicalJson } from '../../domain/canonicalJson';
import { fragmentSchema } from '../../domain/contracts/fragmentSchema';
import { schemaExample } from '../../domain/protocol/schemaExample';
import { TASK_STATES } from '../../domain/protocol/states';
import { exposedTools } from '../../domain/protocol/tools/exposure';
import type { TurnView } from '../../domain/protocol/tools/exposure';
import { submitFragmentTool } from '../../domain/protocol/tools/fragmentTool';
import { validateRawArguments } from '../../domain/protocol/tools/toolKit';
import type { ExposedTool, SchemaCheck } from '../../domain/protocol/tools/toolKit';
import type { TopologySnapshot } from '../../domain/topology';
import type { CdslCatalog } from '../cdslCatalog';
import type { ModelPort } from './ports';

export interface ConformanceCheck {
  name: string;
  passed: boolean;
  detail: string;
}

export interface GenerationConformance {
  model: string;
  passed: boolean;
  mode: 'tool_calling';
  checks: ConformanceCheck[];
}

/** A tiny synthetic snapshot so selector-bound fragment schemas have one token of each kind. */
const SNAPSHOT: TopologySnapshot = {
  snapshot_id: 'conformance',
  faces: [{ token: 'fc_c0nf0000000000000001', index: 0, kind: 'plane', area_mm2: 1, centroid: [0, 0, 0], bbox: { min: [0, 0, 0], max: [1, 1, 0] }, normal: [0, 0, 1], adjacent_faces: [] }],
  edges: [{ token: 'ed_c0nf0000000000000001', index: 0, kind: 'line', length_mm: 1, start: [0, 0, 0], end: [1, 0, 0], adjacent_faces: [0] }],
  features: ['extrude', 'revolve', 'extrude_cut_blind', 'extrude_cut_through', 'hole'].map((atomic_id, i) => ({ token: `ft_c0nf000000000000000${i}`, feature_id: `F${i + 1}`, atomic_id, mode: atomic_id === 'extrude' || atomic_id === 'revolve' ? ('add' as const) : ('cut' as const) })),
  measurements: { solid_count: 1, volume_mm3: 1, area_mm2: 1, bbox: { min: [0, 0, 0], max: [1, 1, 1] } },
};

function sampleView(state: TurnView['state'], catalog: CdslCatalog, draftComplete: boolean): TurnView {
  return {
    state, head: 'head_0001_rev_001', hasRevision: true, sourceIds: ['src_001'], draftIds: ['d_001'], draftComplete, requirementIds: ['req_001'], claimIds: ['claim_001'], visualClaimIds: ['claim_001'],
    claimKinds: [...catalog.verifiers.values()].map((v) => ({ kind: v.kind, summary: v.summary, expected_schema: v.expected_schema })), operations: [...catalog.contracts.keys()], pending: null,
    inspectedSnapshotId: null, fragmentSchema: null, evidenceRefs: ['ev_1'], checkpointTokens: ['rev_000'], completable: true, candidate: { id: 'cand_1', head: 'head_0001_rev_001' }, revisionId: 'rev_001',
  };
}

/** Every fixed tool of every state plus one fragment tool per offered operation. */
export function conformanceTools(catalog: CdslCatalog, check: SchemaCheck): ExposedTool[] {
  const fixed = new Map<string, ExposedTool>();
  for (const state of TASK_STATES) {
    for (const draftComplete of [false, true]) for (const tool of exposedTools(sampleView(state, catalog, draftComplete), check)) if (!fixed.has(tool.name)) fixed.set(tool.name, tool);
  }
  const fragments = [...catalog.contracts.values()].map((contract) =>
    submitFragmentTool({ head: 'head_0001_rev_001', contractHash: 'ch_conformance', snapshotId: SNAPSHOT.snapshot_id, fragmentSchema: fragmentSchema(contract, SNAPSHOT), check }),
  );
  return [...fixed.values(), ...fragments];
}

/**
 * Provider conformance for generation (seed §6.5): the model must send, through each offered
 * tool schema, exactly the valid instance it was shown — and pick the named tool when several
 * are offered. A refused request (a non-retryable error, e.g. the provider rejects the schema)
 * counts as a failed check; a retryable one (the provider is down, rate-limited, timed out) stops
 * the suite and is thrown as is: an outage says nothing about the model, and a stored failure
 * would keep refusing it after the provider is back.
 */
export async function runGenerationConformance(model: ModelPort, catalog: CdslCatalog, check: SchemaCheck): Promise<GenerationConformance> {
  const checks: ConformanceCheck[] = [];
  const tools = conformanceTools(catalog, check);
  const probe = async (name: string, offered: ExposedTool[], target: ExposedTool): Promise<void> => {
    const example = schemaExample(target.canonicalParameters ?? target.parameters);
    const fragmentOp = (example as { fragment?: { feature?: { atomic_id?: string } } } | undefined)?.fragment?.feature?.atomic_id;
    const label = fragmentOp ? `${name}:${fragmentOp}` : name;
    if (example === undefined || !target.validate(example).ok) {
      checks.push({ name: label, passed: false, detail: 'CDSL_RUNTIME_CONTRACT_INVALID: no valid example instance for this schema' });
      return;
    }
    try {
      const reply = await model.turn({
        system: 'Conformance check: call the requested tool with exactly the given arguments.',
        user: JSON.stringify({ conformance: true, call: target.name, arguments: example }),
        tools: offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
        purpose: 'cadgen.conformance',
      });
      if (reply.kind !== 'call' || reply.name !== target.name) {
        checks.push({ name: label, passed: false, detail: reply.kind === 'call' ? `called ${reply.name}` : 'no single tool call' });
        return;
      }
      const validation = validateRawArguments(target, reply.rawArguments);
      const same = validation.ok && canonicalJson(validation.value) === canonicalJson(example);
      checks.push({ name: label, passed: same, detail: validation.ok ? (same ? 'exact' : 'valid but different arguments') : validation.issues.map((i) => `${i.path} ${i.message}`).join('; ').slice(0, 200) });
    } catch (error) {
      if ((error as { retryable?: boolean }).retryable === true) throw error;
      checks.push({ name: label, passed: false, detail: `${(error as { code?: string }).code ?? 'ERROR'}: ${(error as Error).message}`.slice(0, 200) });
    }
  };
  for (const tool of tools) await probe(tool.name, [tool], tool);
  const [a, b] = tools;
  if (a && b) await probe('choice_among_two', [a, b], b);
  return { model: model.id, passed: checks.every((c) => c.passed), mode: 'tool_calling', checks };
}

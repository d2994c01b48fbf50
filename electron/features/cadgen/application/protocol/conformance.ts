import { AppError } from '../../../../../shared/errors';
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
import { familyMismatch, probeSchemaOf, schemaFamilies } from './conformanceProbes';
import type { ModelPort, ModelTurn, OutputMode } from './ports';

export interface ConformanceCheck {
  name: string;
  mode: OutputMode;
  passed: boolean;
  detail: string;
}

/**
 * What a conformance record is valid for (issue 24.5): the wire protocol, the endpoint's base
 * URL, the model name and the hash of the schema set the product sends. Any change re-runs it.
 */
export interface ConformanceKey {
  protocol: string;
  baseUrl: string;
  model: string;
  schemaSetHash: string;
}

/** One output mode's outcome: probed (passed/failed), not offered by the protocol, or not probed because an earlier mode passed. */
export interface OutputModeOutcome {
  status: 'passed' | 'failed' | 'not_offered' | 'not_probed';
  checks: ConformanceCheck[];
}

export interface GenerationConformance {
  model: string;
  key: ConformanceKey;
  /** True when some mode passed; `mode` is the one the gateway will use. */
  passed: boolean;
  mode: OutputMode | null;
  modes: Record<OutputMode, OutputModeOutcome>;
  /** Every check of every probed mode. */
  checks: ConformanceCheck[];
  /** What the suite cost: model calls made and request bytes sent (as the gateway counted them). */
  cost: { calls: number; requestBytes: number };
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
    claimKinds: [...catalog.verifiers.values()].map((v) => ({ kind: v.kind, summary: v.summary, expected_schema: v.expected_schema })), claimSchemasRead: true, operations: [...catalog.contracts.keys()], pending: null,
    inspectedSnapshotId: null, fragmentSchema: null, evidenceRefs: ['ev_1'], checkpointTokens: ['rev_000'], completable: true, repairing: true, candidate: { id: 'cand_1', head: 'head_0001_rev_001' }, revisionId: 'rev_001',
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

/** The schema set the product sends, as one canonical text (its sha256 is part of the conformance key). */
export function schemaSetText(catalog: CdslCatalog, check: SchemaCheck): string {
  return canonicalJson(conformanceTools(catalog, check).map((t) => ({ name: t.name, parameters: t.parameters, ...(t.canonicalParameters ? { canonicalParameters: t.canonicalParameters } : {}) })));
}

/** Largest probe request (system + user text + tool schemas, in bytes) the suite may send. */
export const MAX_PROBE_REQUEST_BYTES = 128 * 1024;

const SYSTEM = 'Conformance check: call the requested tool with exactly the given arguments.';

export interface ConformanceOptions {
  /** 'first_passing' (default) stops after the first mode that passes; 'all' probes every offered mode. */
  modes?: 'first_passing' | 'all';
  maxRequestBytes?: number;
}

/**
 * Provider conformance for generation (seed §6.5, issues 24.5 and 27.5). Per output mode, in the
 * endpoint's order of preference (strict, tool, json): one probe per schema family — the model
 * must send back, through the family's probe tool, every example of every member (each union
 * branch, e.g. each claim kind, and each optional field) — then a two-tool probe where it must pick
 * the named tool. A mode stops at its first failed probe. Each probe's request is sized before
 * anything is sent: one larger than `maxRequestBytes` refuses the suite (LLM_CONTEXT_TOO_LARGE,
 * no call made). Error mapping: a refused request (non-retryable, e.g. the provider's 400 on a
 * schema, an empty `choices`) fails the check; invalid JSON or prose instead of a call fails it; a
 * retryable error (429 after its Retry-After waits, timeout, outage) stops the suite and is thrown
 * as is — an outage says nothing about the model, and a stored failure would keep refusing it.
 */
export async function runGenerationConformance(model: ModelPort, catalog: CdslCatalog, check: SchemaCheck, key: ConformanceKey, options: ConformanceOptions = {}): Promise<GenerationConformance> {
  const tools = conformanceTools(catalog, check);
  const { families, invalidMembers } = schemaFamilies(tools);
  const [a, b] = tools;
  const twoTools = a && b ? { offered: [a, b], target: b, example: schemaExample(probeSchemaOf(b)) } : null;
  const offered = model.endpoint?.modes ?? (['tool'] as OutputMode[]);
  const requests: { name: string; turn: (mode: OutputMode) => ModelTurn; judge: (name: string, raw: string) => string | null }[] = [
    ...families.map((family) => ({
      name: `family:${family.name}`,
      turn: (mode: OutputMode): ModelTurn => ({ mode, system: SYSTEM, user: JSON.stringify({ conformance: true, mode, call: family.probe.name, arguments: family.expected }), tools: [family.probe], purpose: 'cadgen.conformance' }),
      judge: (name: string, raw: string) => (name === family.probe.name ? familyMismatch(family, raw) : `called ${name}`),
    })),
    ...(twoTools
      ? [{
          name: 'choice_among_two',
          turn: (mode: OutputMode): ModelTurn => ({ mode, system: SYSTEM, user: JSON.stringify({ conformance: true, mode, call: twoTools.target.name, arguments: twoTools.example }), tools: twoTools.offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, ...(t.canonicalParameters ? { canonicalParameters: t.canonicalParameters } : {}) })), purpose: 'cadgen.conformance' }),
          judge: (name: string, raw: string) => {
            if (name !== twoTools.target.name) return `called ${name}`;
            const validation = validateRawArguments(twoTools.target, raw);
            if (!validation.ok) return validation.issues.map((i) => `${i.path} ${i.message}`).join('; ').slice(0, 200);
            return canonicalJson(validation.value) === canonicalJson(twoTools.example) ? null : 'valid but different arguments';
          },
        }]
      : []),
  ];
  const limit = options.maxRequestBytes ?? MAX_PROBE_REQUEST_BYTES;
  for (const request of requests) {
    const turn = request.turn('tool');
    const bytes = Buffer.byteLength(JSON.stringify({ system: turn.system, user: turn.user, tools: turn.tools }), 'utf8');
    if (bytes > limit) throw new AppError('LLM_CONTEXT_TOO_LARGE', `conformance probe ${request.name} would send ${bytes} bytes (limit ${limit}); no probe was sent`, { data: { probe: request.name, bytes, limit } });
  }

  const cost = { calls: 0, requestBytes: 0 };
  const modes = Object.fromEntries((['strict', 'tool', 'json'] as const).map((m) => [m, { status: offered.includes(m) ? 'not_probed' : 'not_offered', checks: [] }])) as unknown as Record<OutputMode, OutputModeOutcome>;
  const broken = invalidMembers.map((name): Omit<ConformanceCheck, 'mode'> => ({ name, passed: false, detail: 'CDSL_RUNTIME_CONTRACT_INVALID: no valid example instance for this schema' }));
  let chosen: OutputMode | null = null;
  for (const mode of offered) {
    if (chosen && options.modes !== 'all') break;
    const outcome = modes[mode];
    outcome.checks.push(...broken.map((c) => ({ ...c, mode })));
    for (const request of requests) {
      if (outcome.checks.some((c) => !c.passed)) break;
      outcome.checks.push({ name: request.name, mode, ...(await probe(model, request.turn(mode), request.judge, cost)) });
    }
    outcome.status = outcome.checks.every((c) => c.passed) ? 'passed' : 'failed';
    if (outcome.status === 'passed' && !chosen) chosen = mode;
  }
  const checks = Object.values(modes).flatMap((m) => m.checks);
  return { model: model.id, key, passed: chosen !== null, mode: chosen, modes, checks, cost };
}

async function probe(model: ModelPort, turn: ModelTurn, judge: (name: string, raw: string) => string | null, cost: { calls: number; requestBytes: number }): Promise<{ passed: boolean; detail: string }> {
  cost.calls += 1;
  try {
    const reply = await model.turn(turn);
    cost.requestBytes += reply.usage.contextBytes;
    if (reply.kind !== 'call') return { passed: false, detail: `no single tool call: ${JSON.stringify(reply.text.slice(0, 80))}` };
    const mismatch = judge(reply.name, reply.rawArguments);
    return { passed: mismatch === null, detail: mismatch ?? 'exact' };
  } catch (error) {
    if ((error as { retryable?: boolean }).retryable === true) throw error;
    return { passed: false, detail: `${(error as { code?: string }).code ?? 'ERROR'}: ${(error as Error).message}`.slice(0, 200) };
  }
}

import { canonicalJson } from '../../domain/canonicalJson';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import type { TurnNotes } from '../../domain/protocol/task';
import type { FaceInfo } from '../../domain/topology';
import type { OperationContract } from '../../domain/contracts/types';
import { accepted, rejected } from './handlerTypes';
import type { Handler, HandlerResult } from './handlerTypes';

const r3 = (v: number): number => Math.round(v * 1000) / 1000;
const v3 = (v: readonly number[] | undefined): number[] | undefined => (v ? v.map(r3) : undefined);

const faceEntry = (f: FaceInfo): Record<string, unknown> => ({
  token: f.token,
  kind: f.kind,
  area_mm2: r3(f.area_mm2),
  centroid: v3(f.centroid),
  ...(f.normal ? { normal: v3(f.normal) } : {}),
  ...(f.radius_mm !== undefined ? { radius_mm: r3(f.radius_mm), axis: v3(f.axis?.direction), bore: f.concave === true } : {}),
});

/** Keeps only the facts of this head; a note is bounded so prompts do not grow with the part. */
export const noted = (notes: TurnNotes, head: string, patch: Partial<TurnNotes>): TurnNotes => ({ ...(notes.head === head ? notes : { head }), ...patch });

function observed(message: string, notes: TurnNotes, extra: Parameters<typeof accepted>[0] = {}): HandlerResult {
  return accepted({ ...extra, task: { ...(extra.task ?? {}), notes, last_error: null } }, message, false);
}

/** inspect_topology: the selector token bank of the head revision (binds the fragment schema). */
export const handleInspectTopology: Handler<{ kind: 'face' | 'edge' | 'feature'; limit: number }> = async ({ snapshot, value, topology }) => {
  if (!topology) return rejected(protocolError(ProtocolErrorCode.runtimePreconditionFailed, 'the part has no geometry yet'));
  const entries =
    value.kind === 'face'
      ? topology.faces.map(faceEntry)
      : value.kind === 'edge'
        ? topology.edges.map((e) => ({ token: e.token, kind: e.kind, length_mm: r3(e.length_mm), start: v3(e.start), end: v3(e.end), ...(e.radius_mm !== undefined ? { radius_mm: r3(e.radius_mm), centre: v3(e.centre) } : {}) }))
        : topology.features.map((f) => ({ token: f.token, feature_id: f.feature_id, atomic_id: f.atomic_id, mode: f.mode }));
  const head = snapshot.task.working_head;
  const notes = noted(snapshot.task.notes, head, { topology: { kind: value.kind, snapshot_id: topology.snapshot_id, entries: entries.slice(0, value.limit) }, last_tool: { tool: 'inspect_topology', outcome: `${Math.min(entries.length, value.limit)} of ${entries.length} ${value.kind}s` } });
  return observed(`${entries.length} ${value.kind}s`, notes, { observation: { head, snapshot_id: topology.snapshot_id } });
};

/** What reading an operation's contract gives the author: its hash (bound to the pending action) and the note the facts carry. */
export function contractReading(contract: OperationContract, sha256: (text: string) => string): { hash: string; note: NonNullable<TurnNotes['contract']> } {
  const hash = `ch_${sha256(canonicalJson(contract)).slice(0, 16)}`;
  return { hash, note: { atomic_id: contract.atomic_id, contract_hash: hash, summary: contract.summary } };
}

/** get_cdsl_operation_contract: reading the pending operation's contract binds its hash to the action. */
export const handleOperationContract: Handler<{ atomic_id: string }> = async ({ snapshot, value, deps }) => {
  const contract = deps.catalog.contracts.get(value.atomic_id);
  if (!contract) return rejected(protocolError(ProtocolErrorCode.runtimeContractInvalid, `no contract for ${value.atomic_id}`));
  const { hash, note } = contractReading(contract, deps.sha256);
  const head = snapshot.task.working_head;
  const notes = noted(snapshot.task.notes, head, { contract: note, last_tool: { tool: 'get_cdsl_operation_contract', outcome: contract.atomic_id } });
  const pending = snapshot.pending && snapshot.pending.proposal.atomic_id === value.atomic_id ? { ...snapshot.pending, contract_hash: hash } : undefined;
  return observed(`contract ${contract.atomic_id} ${hash}`, notes, pending ? { pending } : {});
};

/** get_claim_schema: the closed expected-value schemas of the named kinds, kept with those read before at this head. */
export const handleClaimSchema: Handler<{ claim_kinds: string[] }> = async ({ snapshot, value, deps }) => {
  const head = snapshot.task.working_head;
  const kept = snapshot.task.notes.head === head ? snapshot.task.notes.claim_schemas ?? {} : {};
  const read: Record<string, unknown> = {};
  for (const kind of value.claim_kinds) {
    const verifier = deps.catalog.verifiers.get(kind);
    if (!verifier) return rejected(protocolError(ProtocolErrorCode.verifierUnavailable, `no verifier for ${kind}`, { kinds: [kind] }));
    read[kind] = verifier.expected_schema;
  }
  const notes = noted(snapshot.task.notes, head, { claim_schemas: { ...kept, ...read }, last_tool: { tool: 'get_claim_schema', outcome: value.claim_kinds.join(', ') } });
  return observed(`claim schemas ${value.claim_kinds.join(', ')}`, notes);
};

/** measure: compact measurements of the head revision. */
export const handleMeasure: Handler<{ quantity: string }> = async ({ snapshot, value, topology }) => {
  if (!topology) return rejected(protocolError(ProtocolErrorCode.runtimePreconditionFailed, 'the part has no geometry yet'));
  const m = topology.measurements;
  const result: Record<string, unknown> =
    value.quantity === 'bores'
      ? { bores: topology.faces.filter((f) => f.kind === 'cylinder' && f.concave).map(faceEntry) }
      : value.quantity === 'planar_faces'
        ? { planar_faces: topology.faces.filter((f) => f.kind === 'plane').map(faceEntry) }
        : value.quantity === 'volume'
          ? { volume_mm3: r3(m.volume_mm3) }
          : value.quantity === 'bbox'
            ? { bbox: { min: v3(m.bbox.min), max: v3(m.bbox.max) } }
            : { solid_count: m.solid_count, volume_mm3: r3(m.volume_mm3), bbox: { min: v3(m.bbox.min), max: v3(m.bbox.max) } };
  const notes = noted(snapshot.task.notes, snapshot.task.working_head, { measure: { quantity: value.quantity, ...result }, last_tool: { tool: 'measure', outcome: value.quantity } });
  return observed(`measured ${value.quantity}`, notes);
};

/** render_view: where the head revision's hidden-line drawing of one view is, and its size. */
export const handleRenderView: Handler<{ view: string }> = async ({ snapshot, value, deps }) => {
  const revision = snapshot.task.head_revision;
  if (!revision) return rejected(protocolError(ProtocolErrorCode.runtimePreconditionFailed, 'the part has no geometry yet'));
  const svg = await deps.artifacts.readText(snapshot.task.task_id, `revisions/${revision}/view-${value.view}.svg`);
  if (svg === null) return rejected(protocolError(ProtocolErrorCode.renderServiceUnavailable, `no ${value.view} drawing for ${revision}`));
  const render = { view: value.view, path: `revisions/${revision}/view-${value.view}.svg`, paths: (svg.match(/<path /g) ?? []).length, bytes: svg.length };
  const notes = noted(snapshot.task.notes, snapshot.task.working_head, { render, last_tool: { tool: 'render_view', outcome: value.view } });
  return observed(`rendered ${value.view}`, notes);
};

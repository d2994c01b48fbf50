import { canonicalJson } from '../../domain/canonicalJson';
import { drawingLanguageOf } from '../../domain/drawingSvg';
import type { CdslDocument } from '../../domain/document';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { buildDocument } from '../buildDocument';
import { assertStepInspection } from '../runtimeContract';
import type { GenerationDeps } from './deps';
import { contractClaims, gateCandidate } from './candidateHandlers';
import type { TaskChange, TaskSnapshot } from './ports';
import { afterRejection } from './rejectionLimit';
import { moveTo } from './transitions';

/** Suffix of claim-result rows of a final rebuild (kept apart from the candidate-stage results). */
export const FINAL_SUFFIX = '@final';

/**
 * Builds the one candidate in CANDIDATE_BUILDING (seed §5 step 6). A folder already published
 * for the same document (crash after publish, before commit) is reused after its manifest is
 * verified, so one idempotency key never gets a second build; anything else in the way is removed.
 */
export async function buildCandidateStep(snapshot: TaskSnapshot, deps: GenerationDeps): Promise<TaskChange> {
  const { task } = snapshot;
  const candidate = snapshot.candidates.find((c) => c.status === 'building');
  if (!candidate) throw protocolError(ProtocolErrorCode.illegalTransition, 'CANDIDATE_BUILDING without a building candidate');
  const document = JSON.parse(candidate.document_json) as CdslDocument;
  const dir = deps.artifacts.revisionDir(task.task_id, candidate.revision_id);
  const rel = `revisions/${candidate.revision_id}`;
  const claims = contractClaims(snapshot);
  let report: { ok: boolean; claims: import('../evaluateClaims').ClaimResult[]; snapshot_id: string | null; manifest: unknown; features: unknown; error?: unknown };
  const manifestText = await deps.artifacts.readText(task.task_id, `${rel}/manifest.json`);
  const reusable = manifestText !== null && (JSON.parse(manifestText) as { input_sha256: string }).input_sha256 === deps.sha256(canonicalJson(document)) && (await deps.artifacts.verifyRevision(task.task_id, candidate.revision_id));
  if (reusable) {
    const measurements = JSON.parse((await deps.artifacts.readText(task.task_id, `${rel}/measurements.json`)) ?? '{}') as { claims: import('../evaluateClaims').ClaimResult[]; features: unknown };
    const topology = JSON.parse((await deps.artifacts.readText(task.task_id, `${rel}/topology.json`)) ?? '{}') as { snapshot_id: string };
    report = { ok: true, claims: measurements.claims, snapshot_id: topology.snapshot_id, manifest: JSON.parse(manifestText), features: measurements.features };
  } else {
    await deps.artifacts.sweep(task.task_id, new Set(snapshot.revisions.map((r) => r.revision_id)));
    deps.crashHook?.('candidate_build', candidate.candidate_id);
    const built = await buildDocument({ catalog: deps.catalog, runtime: deps.runtime, publisher: deps.publisher, encoders: deps.encoders }, { document, claims, outDir: dir, stage: 'candidate', labelLanguage: drawingLanguageOf(task.request) });
    deps.crashHook?.('artifact_publish', candidate.candidate_id);
    const failed = built.features.find((f) => f.status === 'failed');
    report = { ok: built.artifacts !== null && !failed, claims: built.claims, snapshot_id: null, manifest: built.artifacts, features: built.features, ...(failed?.error ? { error: failed.error } : {}) };
    if (report.ok) report.snapshot_id = JSON.parse((await deps.artifacts.readText(task.task_id, `${rel}/topology.json`)) ?? '{}').snapshot_id as string;
  }
  const usage = { ...task.usage, candidateBuilds: task.usage.candidateBuilds + 1 };
  if (!report.ok) {
    const error = protocolError(ProtocolErrorCode.candidateBuildFailed, `candidate ${candidate.candidate_id} did not build: ${(report.error as { message?: string } | undefined)?.message ?? 'no solid'}`, { feature_error: report.error ?? null });
    return afterRejection(
      snapshot,
      candidate,
      error,
      {
        candidate: { ...candidate, status: 'build_failed', report_json: JSON.stringify(report) },
        pending: null,
        task: { usage },
        ledger: [{ event: 'candidate_failed', action_id: candidate.action_id, candidate_id: candidate.candidate_id, code: error.code, summary: error.message.slice(0, 300) }],
        outbox: [{ type: 'candidate_failed', payload: { candidate_id: candidate.candidate_id } }],
      },
      'candidate_build_failed',
    );
  }
  return {
    candidate: { ...candidate, status: 'built', report_json: JSON.stringify({ claims: report.claims, snapshot_id: report.snapshot_id, manifest: report.manifest, features: report.features }) },
    task: { state: moveTo(task.state, 'candidate_built'), usage },
    ledger: [{ event: 'candidate_built', action_id: candidate.action_id, candidate_id: candidate.candidate_id, revision_id: candidate.revision_id, blockers: gateCandidate(snapshot, snapshot.pending?.proposal.requirement_ids ?? [], report.claims).map((b) => b.id) }],
    outbox: [{ type: 'candidate_built', payload: { candidate_id: candidate.candidate_id } }],
  };
}

/** Final validation rebuild: CDSL-only rebuild of the head revision, final-stage claims, STEP re-import. */
export async function finalRebuildStep(snapshot: TaskSnapshot, deps: GenerationDeps): Promise<TaskChange> {
  const { task } = snapshot;
  const revision = snapshot.revisions.find((r) => r.revision_id === task.head_revision);
  if (!revision) throw protocolError(ProtocolErrorCode.illegalTransition, 'final validation without a head revision');
  const document = JSON.parse(revision.document_json) as CdslDocument;
  const built = await buildDocument({ catalog: deps.catalog, runtime: deps.runtime }, { document, claims: contractClaims(snapshot), stage: 'final' });
  const step = await deps.artifacts.readText(task.task_id, `${revision.dir}/model.step`);
  const claims = [...built.claims];
  if (step !== null) {
    const inspected = await deps.runtime.inspectStep(step);
    assertStepInspection(inspected);
    claims.push({ id: 'global_step_valid', kind: 'step_reimport', deterministic: true, status: inspected.valid && inspected.solid_count >= 1 ? 'pass' : 'fail', message: `STEP re-import: ${inspected.solid_count} solid(s)`, evidence: { ...inspected } });
  }
  return { claimResults: { revision_id: `${revision.revision_id}${FINAL_SUFFIX}`, results: claims } };
}

import type { CdslDocument } from '../../domain/document';
import type { ClaimResult } from '../evaluateClaims';
import type { GenerationDeps } from './deps';
import type { TaskSnapshot } from './ports';
import { FINAL_SUFFIX } from './serverSteps';

const VIEWS = ['iso', 'front', 'top'] as const;

async function renders(deps: GenerationDeps, taskId: string, dir: string): Promise<{ mimeType: string; data: Uint8Array }[]> {
  const images: { mimeType: string; data: Uint8Array }[] = [];
  for (const view of VIEWS) {
    const png = await deps.artifacts.readBytes(taskId, `${dir}/view-${view}.png`);
    if (png) images.push({ mimeType: 'image/png', data: png });
  }
  return images;
}

/** What the reviewer sees in each review state: subject facts, read-only claim results, line drawings. */
export async function reviewSubject(snapshot: TaskSnapshot, deps: GenerationDeps): Promise<{ subject: Record<string, unknown>; claims?: ClaimResult[]; images: { mimeType: string; data: Uint8Array }[] }> {
  const { task } = snapshot;
  if (task.state === 'CANDIDATE_REVIEW') {
    const candidate = snapshot.candidates.find((c) => c.status === 'built');
    if (!candidate) return { subject: {}, images: [] };
    const report = JSON.parse(candidate.report_json ?? '{}') as { claims: ClaimResult[] };
    const document = JSON.parse(candidate.document_json) as CdslDocument;
    return {
      subject: { candidate_id: candidate.candidate_id, working_head: candidate.base_head, pending_action: snapshot.pending?.proposal, new_feature: document.features[document.features.length - 1], feature_count: document.features.length },
      claims: report.claims,
      images: await renders(deps, task.task_id, `revisions/${candidate.revision_id}`),
    };
  }
  if (task.state === 'FINAL_VALIDATION' && task.head_revision) {
    const revision = snapshot.revisions.find((r) => r.revision_id === task.head_revision);
    return {
      subject: { revision_id: task.head_revision, document: revision ? JSON.parse(revision.document_json) : null },
      claims: snapshot.claimResults.get(`${task.head_revision}${FINAL_SUFFIX}`) ?? [],
      images: revision ? await renders(deps, task.task_id, revision.dir) : [],
    };
  }
  return { subject: {}, images: [] };
}

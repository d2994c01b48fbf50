import type { CdslDocument } from '../../domain/document';
import type { ClaimResult } from '../evaluateClaims';
import { proposalFacts } from './context';
import type { GenerationDeps } from './deps';
import type { TaskSnapshot } from './ports';
import { renderChoicePath, reviewRenders } from './reviewRenders';
import type { RenderChoice } from './reviewRenders';
import { FINAL_SUFFIX } from './serverSteps';

export interface ReviewSubject {
  subject: Record<string, unknown>;
  claims?: ClaimResult[];
  images: { mimeType: string; data: Uint8Array }[];
  /** Which renders were sent and why the others were not (null when the state shows none). */
  renders: RenderChoice | null;
}

/**
 * What the reviewer sees in each review state: subject facts, read-only claim results and the
 * renders chosen by reviewRenders (listed in the facts as `renders`, in the images' order). A
 * candidate is shown the line views that changed against the revision it builds on. The choice
 * is written next to the review document (reviews/<kind>-renders.json) for the handler to record.
 */
export async function reviewSubject(snapshot: TaskSnapshot, deps: GenerationDeps): Promise<ReviewSubject> {
  const { task } = snapshot;
  if (task.state === 'CANDIDATE_REVIEW') {
    const candidate = snapshot.candidates.find((c) => c.status === 'built');
    if (!candidate) return { subject: {}, images: [], renders: null };
    const report = JSON.parse(candidate.report_json ?? '{}') as { claims: ClaimResult[] };
    const document = JSON.parse(candidate.document_json) as CdslDocument;
    // The candidate builds on the head it was proposed at, which is still the task's head (a head
    // token names its revision but is not one: comparing the two found no parent, ever).
    const parent = candidate.base_head === task.working_head ? snapshot.revisions.find((r) => r.revision_id === task.head_revision) : undefined;
    const dir = `revisions/${candidate.revision_id}`;
    const { images, choice } = await reviewRenders(deps, task.task_id, dir, parent ? { dir: parent.dir, revisionId: parent.revision_id } : null, 'first revision: every view');
    await deps.artifacts.writeStep(task.task_id, renderChoicePath(dir, 'candidate'), JSON.stringify(choice, null, 2));
    return {
      subject: { candidate_id: candidate.candidate_id, working_head: candidate.base_head, pending_action: snapshot.pending ? proposalFacts(snapshot.pending.proposal) : undefined, new_feature: document.features[document.features.length - 1], feature_count: document.features.length, renders: describe(choice) },
      claims: report.claims,
      images,
      renders: choice,
    };
  }
  if (task.state === 'FINAL_VALIDATION' && task.head_revision) {
    const revision = snapshot.revisions.find((r) => r.revision_id === task.head_revision);
    const rendered = revision ? await reviewRenders(deps, task.task_id, revision.dir, null, 'final review: every view, the evidence of the visual claims') : null;
    if (revision && rendered) await deps.artifacts.writeStep(task.task_id, renderChoicePath(revision.dir, 'final'), JSON.stringify(rendered.choice, null, 2));
    return {
      subject: { revision_id: task.head_revision, document: revision ? JSON.parse(revision.document_json) : null, ...(rendered ? { renders: describe(rendered.choice) } : {}) },
      claims: snapshot.claimResults.get(`${task.head_revision}${FINAL_SUFFIX}`) ?? [],
      images: rendered?.images ?? [],
      renders: rendered?.choice ?? null,
    };
  }
  return { subject: {}, images: [], renders: null };
}

/** The reviewer's short list: which image is which view and what was left out (no byte counts). */
function describe(choice: RenderChoice): { images: string[]; omitted: string[] } {
  return { images: choice.sent.map((s, i) => `image ${i + 1}: ${s.view} (${s.width}×${s.height}) — ${s.why}`), omitted: choice.omitted.map((o) => `${o.view}: ${o.why}`) };
}

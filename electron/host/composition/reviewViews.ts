import type { z } from 'zod';
import type { findingViewSchema, frameRunViewSchema, plannedWriteSchema, runSummarySchema } from '../../../shared/ipc/contracts/review';
import type { AnnotatedFinding, FrameRecord, ReviewStore, RunRecord, Severity } from '../../features/review/index';
import { frameView } from './reviewOverview';

/** Mapping of review slice records to the IPC view shapes (explicit: views are strict). */

type Counts = Record<Severity, number>;
const zeroCounts = (): Counts => ({ blocking: 0, major: 0, minor: 0, info: 0 });

function countSeverities(findings: readonly { severity: Severity }[]): Counts {
  const counts = zeroCounts();
  for (const f of findings) counts[f.severity]++;
  return counts;
}

export function runSummaryView(store: ReviewStore, run: RunRecord, active: boolean): z.input<typeof runSummarySchema> {
  // AI hypotheses are shown apart and not counted until promoted (as in the report).
  const findings = store.listFindings(run.id).filter((f) => !f.hypothesis);
  const frames = store.listFrames(run.id);
  return {
    id: run.id,
    source: run.source,
    // A row left "running" by a process that died is what resume is for.
    status: run.status === 'running' && !active ? 'interrupted' : run.status,
    llm: run.options.llm,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    findings: findings.length,
    bySeverity: countSeverities(findings),
    framesDone: frames.filter((f) => f.status === 'done').length,
    framesTotal: frames.length,
    error: run.error,
  };
}

export function frameRunView(record: FrameRecord, findings: readonly { frameId: string | null; severity: Severity; hypothesis?: true }[]): z.input<typeof frameRunViewSchema> {
  const overview = record.screenshots[0];
  return {
    frame: frameView(record.frame),
    status: record.status,
    error: record.error,
    screenshot: overview ? { file: overview.file, widthPx: overview.widthPx, heightPx: overview.heightPx, transform: overview.transform } : null,
    counts: countSeverities(findings.filter((f) => f.frameId === record.frame.id && !f.hypothesis)),
  };
}

export function findingView(item: AnnotatedFinding, writtenAt: string | null): z.input<typeof findingViewSchema> {
  const { finding, annotation } = item;
  return {
    id: finding.id,
    shortId: finding.shortId,
    frameId: finding.frameId,
    checklistItemId: finding.checklistItemId,
    severity: finding.severity,
    source: finding.source,
    hypothesis: finding.hypothesis === true,
    message: finding.message,
    evidenceRefs: finding.evidenceRefs,
    location: finding.location,
    ...(finding.count !== undefined && finding.locations ? { count: finding.count, locations: finding.locations } : {}),
    annotation: { state: annotation.state, text: annotation.text, anchor: annotation.anchor, textAt: annotation.textAt, textHeight: annotation.textHeight },
    payloadHash: item.payloadHash,
    writtenAt,
  };
}

/** True when the writer will write this annotation: approved/edited with the current payload. */
export function isApprovedForWrite(item: AnnotatedFinding): boolean {
  const { state, approvedPayloadHash } = item.annotation;
  return (state === 'approved' || state === 'edited') && approvedPayloadHash === item.payloadHash;
}

/**
 * The leader the writer sends for an approved annotation (the review slice's leader payload:
 * arrow tip first, text prefixed with the short id a re-run recognises).
 */
export function plannedWrite(item: AnnotatedFinding, tool: string): z.input<typeof plannedWriteSchema> {
  const { annotation } = item;
  return {
    findingId: annotation.findingId,
    shortId: annotation.shortId,
    tool,
    points: [annotation.anchor, annotation.textAt],
    // The short id is kept in XDATA (reviewId), not in the visible text.
    text: annotation.text,
    height: annotation.textHeight,
    payloadHash: item.payloadHash,
  };
}

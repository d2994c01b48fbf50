import { AppError, toAppErrorData, type AppErrorData } from '../../../../shared/errors';
import type { DrawingSource, DrawingWriteTarget } from '../ports/drawingSource';
import type { ReviewStore } from '../ports/reviewStore';
import { applyAnnotationEvent, isWritable, leaderPayload, payloadHash, visibleIdPayload, type Annotation, type AnnotationEvent } from '../domain/annotation';
import { AI_REVIEW_LAYER } from '../domain/drawingData';
import { shortIdsInText, type Finding } from '../domain/finding';
import { callJsonTool, learnToolParams, newMeter } from './toolCalls';
import { decodeTexts } from './payloadDecoders';
import { MAX_LISTED_TEXTS, readPaged } from './drawingReader';

export interface AnnotatedFinding {
  finding: Finding;
  annotation: Annotation;
  /** The exact payload hash an approval must name (what the UI shows is what gets written). */
  payloadHash: string;
}

/** Findings of a run with their annotation state, in report order. Errors: REVIEW_RUN_NOT_FOUND. */
export function listAnnotatedFindings(store: ReviewStore, runId: string): AnnotatedFinding[] {
  if (!store.getRun(runId)) throw new AppError('REVIEW_RUN_NOT_FOUND', `Review run ${runId} does not exist.`, { data: { runId } });
  const findings = store.listFindings(runId);
  const annotations = new Map(store.listAnnotations(findings.map((f) => f.id)).map((a) => [a.findingId, a]));
  return findings.flatMap((finding) => {
    const annotation = annotations.get(finding.id);
    return annotation ? [{ finding, annotation, payloadHash: payloadHash(annotation) }] : [];
  });
}

/**
 * Applies a user decision (approve / edit / reject). Errors: REVIEW_FINDING_NOT_FOUND,
 * REVIEW_APPROVAL_STALE, REVIEW_ANNOTATION_WRITTEN, REVIEW_ANNOTATION_INVALID.
 */
export function decideAnnotation(store: ReviewStore, findingId: string, event: Exclude<AnnotationEvent, { kind: 'written' }>): Annotation {
  const current = store.getAnnotation(findingId);
  if (!current) throw new AppError('REVIEW_FINDING_NOT_FOUND', `No annotation for finding ${findingId}.`, { data: { findingId } });
  if (event.kind !== 'reject' && store.getFinding(findingId)?.hypothesis) {
    throw new AppError('REVIEW_HYPOTHESIS_NOT_PROMOTED', `Finding ${current.shortId} is an AI hypothesis without CAD evidence; promote it before approving its annotation.`, { data: { findingId } });
  }
  const next = applyAnnotationEvent(current, event);
  store.saveAnnotation(next);
  return next;
}

/**
 * The user confirms an AI hypothesis (a finding no CAD evidence near it supports): from now on its
 * annotation can be approved and written. Errors: REVIEW_FINDING_NOT_FOUND.
 */
export function promoteHypothesis(store: ReviewStore, findingId: string): void {
  const finding = store.getFinding(findingId);
  if (!finding) throw new AppError('REVIEW_FINDING_NOT_FOUND', `Finding ${findingId} does not exist.`, { data: { findingId } });
  if (finding.hypothesis) store.promoteFinding(findingId);
}

export interface WriteOptions {
  /** Where the backend's save tool writes (its `path` input); its default place when absent. */
  savePath?: string;
  /**
   * The target is a fresh copy of the original drawing (headless write-back): the write log of
   * earlier copies does not count, only the AI_REVIEW texts the drawing itself holds.
   */
  freshCopy?: boolean;
}

export interface WriteOutcome {
  written: string[];
  /** Already on AI_REVIEW from an earlier (interrupted) write: logged, not written again. */
  recognised: string[];
  failed: { findingId: string; error: AppErrorData }[];
  /** Backend's save result text (e.g. the new DXF path), when a save was made. */
  saved: string | null;
}

/**
 * Short ids of our annotations already present on the AI_REVIEW layer (XDATA ids, and ids in
 * older visible texts), in model space and in each paper layout notes are going to.
 */
async function shortIdsOnReviewLayer(source: DrawingSource, textsTool: string | undefined, layouts: readonly string[]): Promise<Set<string>> {
  if (!textsTool) return new Set();
  const meter = newMeter();
  learnToolParams(meter, await source.listTools());
  const ids = new Set<string>();
  for (const layout of [undefined, ...layouts]) {
    const { items } = await readPaged(async (offset, limit) => {
      const page = decodeTexts(textsTool, await callJsonTool(source, meter, textsTool, { ...(layout ? { layout } : {}), offset, limit }));
      return { items: page.texts, total: page.total };
    }, MAX_LISTED_TEXTS);
    for (const t of items) if (t.layer === AI_REVIEW_LAYER) for (const id of [...(t.reviewId ? [t.reviewId] : []), ...shortIdsInText(t.text)]) ids.add(id);
  }
  return ids;
}

/**
 * What the target's leader tool announces: a `reviewId` parameter (the id kept out of the visible
 * text) and a `layout` parameter (notes written onto paper sheets).
 */
async function leaderToolInputs(target: DrawingWriteTarget, reader: DrawingSource, tool: string): Promise<{ hiddenId: boolean; layouts: boolean }> {
  const info = (await reader.listTools()).find((t) => t.name === tool);
  const properties = (info?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const ours = properties !== undefined && target.capabilityTools.leaderWrite === tool;
  return { hiddenId: ours && 'reviewId' in properties, layouts: ours && 'layout' in properties };
}

/**
 * Writes every approved annotation of a run as a leader on AI_REVIEW, each at most once: the write
 * log (SQLite) and the texts already on AI_REVIEW are both checked first, and the payload written
 * is exactly the approved one (hash-checked). Then saves when the backend has a save tool (the DXF
 * backend writes a new file next to the original). Errors: REVIEW_WRITE_UNSUPPORTED (no leader
 * tool), REVIEW_RUN_NOT_FOUND; per-annotation failures are returned in `failed` (among them
 * REVIEW_WRITE_SPACE_UNSUPPORTED: a paper sheet's note and a leader tool without a layout input).
 */
export async function writeApprovedAnnotations(
  store: ReviewStore,
  reader: DrawingSource,
  target: DrawingWriteTarget,
  runId: string,
  now: () => Date,
  options: WriteOptions = {},
): Promise<WriteOutcome> {
  const leaderTool = target.capabilityTools.leaderWrite;
  if (!leaderTool) throw new AppError('REVIEW_WRITE_UNSUPPORTED', `${target.label} offers no leader annotation tool.`);
  // A fresh copy holds none of the notes written to earlier copies: those are written again.
  const again = (a: Annotation): boolean => options.freshCopy === true && a.state === 'written' && a.approvedPayloadHash === payloadHash(a);
  // An unpromoted AI hypothesis is never written, whatever its annotation says.
  const candidates = listAnnotatedFindings(store, runId).filter((a) => (isWritable(a.annotation) || again(a.annotation)) && !a.finding.hypothesis);
  const outcome: WriteOutcome = { written: [], recognised: [], failed: [], saved: null };
  if (candidates.length === 0) return outcome;
  const layouts = [...new Set(candidates.flatMap((c) => (c.annotation.layout ? [c.annotation.layout] : [])))];
  const onLayer = await shortIdsOnReviewLayer(reader, reader.capabilityTools.texts, layouts);
  const inputs = await leaderToolInputs(target, reader, leaderTool);
  for (const { annotation } of candidates) {
    const hash = payloadHash(annotation);
    const record = { findingId: annotation.findingId, runId, payloadHash: hash, writtenAt: now().toISOString() };
    const written = annotation.state === 'written' ? annotation : applyAnnotationEvent(annotation, { kind: 'written', payloadHash: hash });
    if ((!options.freshCopy && store.getWrite(annotation.findingId)) || onLayer.has(annotation.shortId)) {
      store.recordWrite(record, written);
      outcome.recognised.push(annotation.findingId);
      continue;
    }
    try {
      if (annotation.layout && !inputs.layouts) {
        // Written without its layout it would land in model space at sheet coordinates: refused instead.
        throw new AppError('REVIEW_WRITE_SPACE_UNSUPPORTED', `${leaderTool} of ${target.label} cannot write into paper layout "${annotation.layout}" (it announces no layout input).`, {
          data: { findingId: annotation.findingId, layout: annotation.layout },
        });
      }
      const payload = inputs.hiddenId ? leaderPayload(annotation) : visibleIdPayload(leaderPayload(annotation));
      const result = await target.callTool(leaderTool, payload.args);
      if (result.isError) {
        const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join(' ');
        throw new AppError('REVIEW_WRITE_FAILED', `${leaderTool} failed: ${text.slice(0, 300)}`, { data: { findingId: annotation.findingId } });
      }
      store.recordWrite(record, written);
      outcome.written.push(annotation.findingId);
    } catch (error) {
      outcome.failed.push({ findingId: annotation.findingId, error: toAppErrorData(error) });
    }
  }
  const saveTool = target.capabilityTools.save;
  if (outcome.written.length > 0 && saveTool) {
    const result = await target.callTool(saveTool, options.savePath ? { path: options.savePath } : {});
    const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
    if (result.isError) throw new AppError('REVIEW_WRITE_FAILED', `${saveTool} failed: ${text.slice(0, 300)}`, { data: { written: outcome.written } });
    outcome.saved = text;
  }
  return outcome;
}

/**
 * Headless write-back (`cadsight review --annotate`): approves the proposed note of every finding
 * that is not an AI hypothesis and writes them through writeApprovedAnnotations — the UI's write —
 * into a fresh copy saved at `savePath`. Notes the user rejected stay unwritten.
 * Errors: as writeApprovedAnnotations.
 */
export async function writeAllFindings(store: ReviewStore, reader: DrawingSource, target: DrawingWriteTarget, runId: string, now: () => Date, savePath?: string): Promise<WriteOutcome> {
  for (const { finding, annotation, payloadHash: hash } of listAnnotatedFindings(store, runId)) {
    if (!finding.hypothesis && annotation.state === 'proposed') decideAnnotation(store, finding.id, { kind: 'approve', payloadHash: hash });
  }
  return writeApprovedAnnotations(store, reader, target, runId, now, { freshCopy: true, ...(savePath ? { savePath } : {}) });
}

import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { composeDrawing, type CadRuntime, type Claim, type DrawingRequest, type DrawingResult, type DrawingSheetWriter } from '../../features/cadgen/index';
import { DrawingIndex, findFrames, parseDxfBytes, renderSheetPdf, writeSheetDxf } from '../../features/drawing/index';
import { createFolderOutput, startReview, type ReviewStore } from '../../features/review/index';
import { findBundledResource } from './bundledResources';
import type { GenerationRuntime } from './cadgenGeneration';
import { reviewExitCode } from './reviewFiles';
import { openDxfReviewEndpoints } from './reviewFiles';
import { loadChecklistFile } from './reviewRuns';

const TEMPLATE = 'resources/drawing/gb_part_template.dxf';
const CHECKLIST = 'resources/checklist/review_checklist.json';

/** The Drawing slice's sheet writer over the shipped GB template (read once per call site). */
export async function createSheetWriter(): Promise<DrawingSheetWriter> {
  const file = findBundledResource(import.meta.url, TEMPLATE);
  if (file === null) throw new AppError('CDSL_DRAWING_FAILED', `The drawing template ${TEMPLATE} is missing from this installation.`);
  const template = parseDxfBytes(await readFile(file), file).document;
  return { writeDxf: (sheet) => writeSheetDxf(template, sheet) };
}

export interface DrawingSelfReview {
  runId: string;
  status: string;
  exitCode: number;
  findings: { total: number; blocking: number; major: number; minor: number; info: number };
  hasBlocking: boolean;
}

export interface PartDrawingOutcome {
  dxfPath: string;
  pdfPath: string;
  reportPath: string;
  sheet: DrawingResult['sheet'];
  review: DrawingSelfReview;
}

/**
 * Writes DIR/drawing.dxf and DIR/drawing.pdf (vector, the DXF read back and printed), reviews it with the checklist's rule items (the review slice's public
 * entry over the embedded DXF backend; no model) into DIR/review/, and writes DIR/drawing-report.json:
 * sheet, scale, which claim became which dimension (or why not) and the finding counts.
 */
export async function writePartDrawing(deps: { runtime: CadRuntime; store: ReviewStore }, request: DrawingRequest, outDir: string): Promise<PartDrawingOutcome> {
  const writer = await createSheetWriter();
  const result = await composeDrawing({ runtime: deps.runtime, writer }, request);
  await mkdir(outDir, { recursive: true });
  const dxfPath = path.join(outDir, 'drawing.dxf');
  await writeFile(dxfPath, result.dxf, 'utf8');
  const pdfPath = path.join(outDir, 'drawing.pdf');
  await writeFile(pdfPath, sheetPdf(dxfPath, result.dxf, request.titleBlock.title));
  const review = await selfReview(deps.store, dxfPath, path.join(outDir, 'review'), request.lang);
  const reportPath = path.join(outDir, 'drawing-report.json');
  await writeFile(reportPath, JSON.stringify({ format: result.sheet.format, scale: result.sheet.scale, projection: request.method, claims: result.sheet.claims, dimensions: result.sheet.dimensions, review }, null, 2), 'utf8');
  return { dxfPath, pdfPath, reportPath, sheet: result.sheet, review };
}

/** The written DXF read back (the PDF shows what the DXF holds) and printed on its sheet as a vector PDF. */
function sheetPdf(dxfPath: string, dxf: string, title: string): Uint8Array {
  const index = new DrawingIndex(parseDxfBytes(new TextEncoder().encode(dxf), dxfPath).document);
  const frame = findFrames(index)[0];
  if (!frame?.sheet) throw new AppError('CDSL_DRAWING_FAILED', 'the written drawing has no sheet frame to print');
  const { bbox } = frame;
  const k = frame.sheet.scale;
  return renderSheetPdf({ index, layout: frame.layout, bbox, widthMm: (bbox.maxX - bbox.minX) / k, heightMm: (bbox.maxY - bbox.minY) / k, title });
}

async function selfReview(store: ReviewStore, dxfPath: string, outDir: string, lang: DrawingRequest['lang']): Promise<DrawingSelfReview> {
  const checklistFile = findBundledResource(import.meta.url, CHECKLIST);
  if (checklistFile === null) throw new AppError('REVIEW_CHECKLIST_INVALID', `The default checklist ${CHECKLIST} is missing from this installation.`);
  const checklist = loadChecklistFile(checklistFile, null);
  const { source } = await openDxfReviewEndpoints(dxfPath);
  const deps = { store, now: () => new Date(), newRunId: () => `drawing-${crypto.randomUUID()}`, generatorVersion: 'cadsight-gen-drawing' };
  const run = await startReview(deps, { source, output: createFolderOutput(outDir), concurrency: 1 }, checklist, { llm: false, locale: lang, frames: null });
  const s = run.report?.summary;
  return {
    runId: run.runId,
    status: run.status,
    exitCode: reviewExitCode(run),
    findings: { total: s?.total ?? 0, blocking: s?.bySeverity.blocking ?? 0, major: s?.bySeverity.major ?? 0, minor: s?.bySeverity.minor ?? 0, info: s?.bySeverity.info ?? 0 },
    hasBlocking: s?.hasBlocking ?? false,
  };
}

export interface TaskDrawingOptions {
  revision?: string;
  method: DrawingRequest['method'];
  format: DrawingRequest['format'];
  lang: DrawingRequest['lang'];
  outDir: string;
  now: Date;
}

/**
 * `cadsight gen drawing`: the drawing of a task's revision (default its head) from the frozen
 * contract's claims; also copied into the revision's folder as drawing/ (DXF, PDF, report)
 * when that folder exists (artifactDir, else null).
 * Errors: CDSL_REQUEST_INVALID (no such revision, no frozen contract), CDSL_DRAWING_FAILED.
 */
export async function drawingForTask(gen: GenerationRuntime, store: ReviewStore, taskId: string, options: TaskDrawingOptions): Promise<PartDrawingOutcome & { revision: string; artifactDir: string | null }> {
  const snapshot = gen.service.show(taskId);
  const revisionId = options.revision ?? snapshot.task.head_revision;
  const revision = snapshot.revisions.find((r) => r.revision_id === revisionId);
  if (!revision) throw new AppError('CDSL_REQUEST_INVALID', `task ${taskId} has no revision ${revisionId ?? '(no accepted revision yet)'}`);
  if (!snapshot.contract) throw new AppError('CDSL_REQUEST_INVALID', `task ${taskId} has no frozen requirements contract; a drawing is dimensioned from its claims`);
  const claims: Claim[] = snapshot.contract.contract.claims.map((c) => ({ id: c.claim_id, kind: c.claim_kind, expected: c.expected }));
  const request: DrawingRequest = {
    document: JSON.parse(revision.document_json) as DrawingRequest['document'],
    claims,
    method: options.method,
    format: options.format,
    lang: options.lang,
    titleBlock: { title: titleOf(snapshot.task.request), drawingNo: `${taskId}-${revision.revision_id}`, material: null, date: options.now.toISOString().slice(0, 10), revision: revision.revision_id },
  };
  const outcome = await writePartDrawing({ runtime: gen.deps.runtime, store }, request, options.outDir);
  // Only into an existing revision folder: a task whose folder lives elsewhere gets no stray copy.
  const revisionDir = path.join(gen.deps.artifacts.taskDir(taskId), revision.dir);
  const exists = await stat(revisionDir).then((s) => s.isDirectory(), () => false);
  if (!exists) return { ...outcome, revision: revision.revision_id, artifactDir: null };
  const artifactDir = path.join(revisionDir, 'drawing');
  await mkdir(artifactDir, { recursive: true });
  for (const file of ['drawing.dxf', 'drawing.pdf', 'drawing-report.json']) await copyFile(path.join(options.outDir, file), path.join(artifactDir, file));
  return { ...outcome, revision: revision.revision_id, artifactDir };
}

/** 图名: the request's first clause, short enough for the title cell (5 mm lettering, 158 mm). */
function titleOf(request: string): string {
  const first = request.split(/[,，;；。\n]/)[0]?.trim() ?? request;
  return first.length > 36 ? `${first.slice(0, 35)}…` : first;
}

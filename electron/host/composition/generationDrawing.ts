import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import type { generationChannels } from '../../../shared/ipc/contracts/generation';
import type { z } from 'zod';
import { DrawingIndex, findFrames, parseDxfBytes, type DxfScreenshotRenderer } from '../../features/drawing/index';
import type { ReviewStore } from '../../features/review/index';
import { drawingForTask } from './cadgenDrawing';
import type { GenerationRuntime } from './cadgenGeneration';

type MakeDrawing = (typeof generationChannels)['genMakeDrawing'];

/** Long edge of the sheet preview (enough to read 3.5 mm lettering of an A3 sheet on screen). */
const PREVIEW_EDGE_PX = 2000;

/**
 * genMakeDrawing: the CLI's drawingForTask (same composition, same OCCT runtime worker) into a
 * scratch folder, copied into the revision's `drawing/`, plus a PNG preview of the whole sheet
 * rendered from the written DXF by the drawing slice's renderer.
 * Errors: those of drawingForTask, CDSL_ARTIFACT_MISSING (no revision folder to keep the files in),
 * CAD_RENDER_FONT_MISSING.
 */
export async function makeTaskDrawing(
  deps: { gen: GenerationRuntime; store: ReviewStore; renderer: DxfScreenshotRenderer; now: () => Date },
  input: z.output<MakeDrawing['input']>,
): Promise<z.output<MakeDrawing['output']>> {
  const projection = input.projection ?? 'first-angle';
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'cadsight-drawing-'));
  try {
    const outcome = await drawingForTask(deps.gen, deps.store, input.taskId, {
      ...(input.revision ? { revision: input.revision } : {}),
      method: projection === 'first-angle' ? 'first_angle' : 'third_angle',
      format: input.sheet ?? 'auto',
      lang: input.lang ?? 'zh-CN',
      outDir: scratch,
      now: deps.now(),
    });
    if (outcome.artifactDir === null) throw new AppError('CDSL_ARTIFACT_MISSING', `the folder of ${outcome.revision} is missing from the task folder; the drawing has nowhere to be kept`, { data: { taskId: input.taskId, revision: outcome.revision } });
    await writeFile(path.join(outcome.artifactDir, 'drawing.png'), await sheetPreview(deps.renderer, outcome.dxfPath));
    const taskDir = deps.gen.deps.artifacts.taskDir(input.taskId);
    const name = (file: string): string => path.relative(taskDir, path.join(outcome.artifactDir as string, file)).split(path.sep).join('/');
    const { sheet, review } = outcome;
    const textOf = (id: string): string[] => sheet.dimensions.filter((d) => d.id === id).map((d) => d.text.replace(/%%c/gi, 'Ø').replace('<>', String(d.value)));
    return {
      taskId: input.taskId,
      revision: outcome.revision,
      sheet: sheet.format,
      scale: sheet.scale,
      projection,
      findings: review.findings,
      hasBlocking: review.hasBlocking,
      claims: sheet.claims.map((c) => ({ claimId: c.claim_id, kind: c.claim_kind, dimensions: c.dimensions.flatMap(textOf), reason: c.reason ?? null })),
      dxf: name('drawing.dxf'),
      pdf: name('drawing.pdf'),
      report: name('drawing-report.json'),
      preview: name('drawing.png'),
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The written DXF read back and rendered over its sheet frame (what the PDF prints). */
async function sheetPreview(renderer: DxfScreenshotRenderer, dxfPath: string): Promise<Uint8Array> {
  const index = new DrawingIndex(parseDxfBytes(await readFile(dxfPath), dxfPath).document);
  const frame = findFrames(index)[0];
  if (!frame) throw new AppError('CDSL_DRAWING_FAILED', 'the written drawing has no sheet frame to preview');
  const { png } = await renderer.render({ index, layout: frame.layout, bbox: frame.bbox, maxEdge: PREVIEW_EDGE_PX, highlight: [] });
  return png;
}

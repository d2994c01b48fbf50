import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { MAX_DXF_UPLOAD_BYTES, type reviewChannels } from '../../../shared/ipc/contracts/review';
import { AppError } from '../../../shared/errors';
import type { RunManager } from './reviewRuns';

type Download = (typeof reviewChannels)['reviewDownloadFile'];

const MEDIA: Record<z.infer<Download['input']>['kind'], string> = { dxf: 'application/dxf', markdown: 'text/markdown; charset=utf-8', json: 'application/json' };

/**
 * Serves a run's annotated DXF or report as bytes. The path comes from the run's own records
 * (report folder, written.json), never from the caller, so nothing else can be read. Files above
 * the IPC cap are refused (the path is shown in the view for those).
 */
export function downloadRunFile(runs: RunManager, input: z.infer<Download['input']>): z.input<Download['output']> {
  const detail = runs.detail(input.runId);
  const file = input.kind === 'dxf' ? detail.savedDrawing : input.kind === 'markdown' ? detail.report?.markdown : detail.report?.json;
  if (!file || !existsSync(file)) {
    throw new AppError('REVIEW_FILE_NOT_FOUND', input.kind === 'dxf' ? 'No annotated drawing has been written for this run yet.' : 'This run has no report yet.', { data: { runId: input.runId, kind: input.kind } });
  }
  const bytes = statSync(file).size;
  if (bytes > MAX_DXF_UPLOAD_BYTES) {
    throw new AppError('REVIEW_DOWNLOAD_TOO_LARGE', `${path.basename(file)} is ${(bytes / 1048576).toFixed(1)} MB; open it from ${file}.`, { data: { bytes, limit: MAX_DXF_UPLOAD_BYTES } });
  }
  return { fileName: path.basename(file), mimeType: MEDIA[input.kind], dataBase64: readFileSync(file).toString('base64') };
}

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { publishedDigests, verifyArtifactBytes, type PublishedRevision } from '../../features/cadgen/index';
import { filesUnder } from './generationZip';

/**
 * Task-folder files that go into every export beside the revision folder (absent ones are left
 * out): the request, the frozen contract, the checklist with the claim results (completion.md),
 * the same results machine-readable (claims.json) and the action ledger.
 */
export const EXPORT_FILES = ['source-requirements.md', 'requirements-contract.json', 'requirements.md', 'completion.md', 'claims.json', 'actions/action-ledger.jsonl'] as const;

/**
 * Copies one published revision folder (to `<out>/<revision_id>/`) and the task's EXPORT_FILES
 * (to `<out>/<base name>`) out of a task folder. Every file a manifest lists is read once and
 * checked against the manifest's sha256 (the database copy) before anything is written, so a
 * tampered file exports nothing. Never overwrites. Errors: CDSL_ARTIFACT_CORRUPT (data.file),
 * CDSL_ARTIFACT_MISSING (the revision folder is gone), CDSL_EXPORT_TARGET_EXISTS.
 */
export async function exportRevisionFolder(input: { taskDir: string; revision: PublishedRevision & { revision_id: string }; revisions: readonly PublishedRevision[]; out: string }): Promise<{ files: string[] }> {
  const digests = publishedDigests(input.revisions);
  const planned: { target: string; bytes: Uint8Array; name: string }[] = [];
  for (const name of (await filesUnder(input.taskDir, input.revision.dir)).sort()) {
    const bytes = new Uint8Array(await readFile(path.join(input.taskDir, name)));
    verifyArtifactBytes(name, bytes, digests.get(name));
    planned.push({ name, bytes, target: path.join(input.out, input.revision.revision_id, path.relative(input.revision.dir, name)) });
  }
  for (const name of EXPORT_FILES) {
    const bytes = await readFile(path.join(input.taskDir, name)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
    if (bytes) planned.push({ name, bytes: new Uint8Array(bytes), target: path.join(input.out, path.basename(name)) });
  }
  for (const file of planned) {
    await mkdir(path.dirname(file.target), { recursive: true });
    await writeFile(file.target, file.bytes, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') throw new AppError('CDSL_EXPORT_TARGET_EXISTS', `${file.target} already exists; export into an empty folder`, { data: { path: file.target } });
      throw error;
    });
  }
  return { files: planned.map((f) => f.name) };
}

import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cdslError, CdslErrorCode } from '../../domain/errors';
import type { ArtifactManifest, ArtifactPublisher } from '../../ports/artifactPublisher';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * File-system publisher: writes into `<parent>/.<name>.staging-<uuid>`, then renames the staging
 * folder onto `outDir` (same parent, so the rename is atomic). An existing non-empty `outDir` is
 * never overwritten. `beforeRename` runs with the staging folder complete and unpublished (the
 * crash-recovery test kills the process there; absent in production).
 */
export function createFsPublisher(clock: () => Date, hooks: { beforeRename?: () => void } = {}): ArtifactPublisher {
  return {
    async publish(outDir, files, meta) {
      const target = path.resolve(outDir);
      const staging = path.join(path.dirname(target), `.${path.basename(target)}.staging-${randomUUID()}`);
      try {
        if (!(await isEmptyOrMissing(target))) throw cdslError(CdslErrorCode.artifactWriteFailed, `output folder ${target} exists and is not empty`, { out_dir: target });
        await mkdir(staging, { recursive: true });
        for (const file of files) {
          if (path.basename(file.name) !== file.name) throw cdslError(CdslErrorCode.artifactWriteFailed, `artifact name ${file.name} is not a plain file name`);
          await writeFile(path.join(staging, file.name), file.bytes);
        }
        const manifest: ArtifactManifest = {
          document_name: meta.document_name,
          input_sha256: sha256(meta.input_text),
          engine_version: meta.engine_version,
          created_at: clock().toISOString(),
          files: files.map((f) => ({ name: f.name, bytes: f.bytes.byteLength, sha256: sha256(f.bytes) })),
        };
        await writeFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
        hooks.beforeRename?.();
        await rm(target, { recursive: true, force: true });
        await rename(staging, target);
        return manifest;
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        if ((error as { code?: string }).code === CdslErrorCode.artifactWriteFailed) throw error;
        throw cdslError(CdslErrorCode.artifactWriteFailed, `could not write artifacts to ${target}`, { out_dir: target, reason: (error as NodeJS.ErrnoException).code ?? 'unknown' });
      }
    },
  };
}

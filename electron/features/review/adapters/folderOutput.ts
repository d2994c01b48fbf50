import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../../shared/errors';
import { writeFileAtomicSync } from '../../../platform/dataDir/fileSafety';
import type { ReviewOutput } from '../ports/reviewOutput';

/**
 * Report output into a folder. Relative paths are confined to the folder (a frame id from a
 * backend must never write elsewhere); files are replaced atomically.
 */
export function createFolderOutput(folder: string): ReviewOutput {
  const root = path.resolve(folder);
  return {
    location: root,
    async writeFile(relativePath, data) {
      const target = path.resolve(root, relativePath);
      if (!target.startsWith(root + path.sep)) {
        throw new AppError('REVIEW_OUTPUT_FAILED', `Refusing to write outside the output folder: ${relativePath}`);
      }
      try {
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileAtomicSync(target, data);
      } catch (error) {
        throw new AppError('REVIEW_OUTPUT_FAILED', `Cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}`, { data: { file: target }, cause: error });
      }
    },
  };
}

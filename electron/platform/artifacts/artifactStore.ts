import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, link, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { syncDirectory } from '../dataDir/fileSafety';
import { asStorageFull, MIN_WRITE_BYTES } from '../dataDir/storageFull';
import type { ArtifactRef, ArtifactStore, PutOptions, StoredArtifact } from './types';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

/** Creates the store over `rootDir` (created on first put). See ArtifactStore for errors. */
export function createArtifactStore(rootDir: string): ArtifactStore {
  const root = path.resolve(rootDir);
  // Staging lives inside the root so the final link/rename never crosses file systems.
  const stagingDir = path.join(root, '.staging');

  const pathOf = (sha256: string): string => {
    if (!SHA256_HEX.test(sha256)) {
      throw new AppError('STORE_ARTIFACT_ID_INVALID', 'An artifact id must be 64 lower-case hexadecimal characters.', { data: { length: sha256.length } });
    }
    return path.join(root, sha256.slice(0, 2), sha256);
  };

  const put = async (content: Uint8Array | AsyncIterable<Uint8Array>, options: PutOptions = {}): Promise<StoredArtifact> => {
    const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = content instanceof Uint8Array ? [content] : content;
    // Known up front for bytes; for a stream, what had arrived when the disk refused.
    let neededBytes = content instanceof Uint8Array ? content.byteLength : MIN_WRITE_BYTES;
    const staged = path.join(stagingDir, `${randomUUID()}.tmp`);
    try {
      await io('prepare the artifact folder', () => mkdir(stagingDir, { recursive: true }));
      const { sha256, size } = await writeStaged(staged, chunks, options.maxBytes, (written) => (neededBytes = Math.max(neededBytes, written)));
      const target = pathOf(sha256);
      await io('prepare the artifact folder', () => mkdir(path.dirname(target), { recursive: true }));
      // link() refuses to replace an existing name, so a stored (possibly referenced) artifact
      // is never overwritten, and two concurrent puts of the same bytes both end up here safely.
      const created = await link(staged, target).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') return false;
          throw ioError('store the artifact', error);
        },
      );
      if (created) {
        await io('make the artifact read-only', () => chmod(target, 0o444));
        syncDirectory(path.dirname(target));
      } else {
        await assertExistingSize(target, sha256, size);
      }
      return { sha256, size, path: target, mediaType: options.mediaType ?? DEFAULT_MEDIA_TYPE };
    } catch (error) {
      throw asStorageFull(error, { folder: root, neededBytes }) ?? error;
    } finally {
      await rm(staged, { force: true });
    }
  };

  const hashStored = async (sha256: string): Promise<ArtifactRef> => {
    const file = pathOf(sha256);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of createReadStream(file)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    } catch (error) {
      throw notFoundOrIo(error, sha256, 'read the artifact');
    }
    if (hash.digest('hex') !== sha256) throw corrupt(sha256);
    return { sha256, size, path: file };
  };

  return {
    put,
    async putFile(file, options) {
      // Opened before streaming so a missing file is a typed error, not a stray stream 'error'.
      const handle = await io('open the file to store', () => open(file, 'r'));
      try {
        return await put(handle.createReadStream({ autoClose: false }), options);
      } catch (error) {
        throw ioError('read the file to store', error);
      } finally {
        await handle.close();
      }
    },
    async has(sha256) {
      return stat(pathOf(sha256)).then(
        (info) => info.isFile(),
        () => false,
      );
    },
    async read(sha256) {
      const bytes = await readFile(pathOf(sha256)).catch((error: unknown) => {
        throw notFoundOrIo(error, sha256, 'read the artifact');
      });
      // Always checked: a damaged or altered file is reported, never served as if it were the artifact.
      if (createHash('sha256').update(bytes).digest('hex') !== sha256) throw corrupt(sha256);
      return bytes;
    },
    verify: hashStored,
    pathOf,
    async markReferenced(sha256) {
      const ref = await hashStored(sha256);
      await io('make the artifact read-only', () => chmod(ref.path, 0o444));
      return ref;
    },
    async removeStaleStaging(olderThan) {
      const names = await readdir(stagingDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw ioError('list the staging folder', error);
      });
      let removed = 0;
      for (const name of names) {
        const file = path.join(stagingDir, name);
        // A file that vanished meanwhile was finished by its writer: nothing to do.
        const info = await stat(file).catch(() => undefined);
        if (info === undefined || info.mtime >= olderThan) continue;
        await io('remove a stale staging file', () => rm(file, { force: true }));
        removed += 1;
      }
      return removed;
    },
  };
}

/** Streams chunks into a new staging file, hashing as it goes; fsyncs before returning. */
async function writeStaged(staged: string, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number | undefined, onSize: (bytes: number) => void) {
  const handle = await io('create a staging file', () => open(staged, 'wx', 0o600));
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      onSize(size);
      if (maxBytes !== undefined && size > maxBytes) {
        throw new AppError('STORE_ARTIFACT_TOO_LARGE', `The content is larger than the ${maxBytes}-byte limit.`, { data: { maxBytes } });
      }
      hash.update(chunk);
      await io('write the staging file', () => handle.writeFile(chunk));
    }
    await io('flush the staging file', () => handle.sync());
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest('hex'), size };
}

/** An existing file of the wrong size cannot hold these bytes: report it, never replace it. */
async function assertExistingSize(target: string, sha256: string, size: number): Promise<void> {
  const info = await io('inspect the stored artifact', () => stat(target));
  if (info.size !== size) throw corrupt(sha256);
}

function corrupt(sha256: string): AppError {
  return new AppError('STORE_ARTIFACT_CORRUPT', `Artifact ${sha256} no longer matches its content hash.`, { data: { sha256 } });
}

function notFoundOrIo(error: unknown, sha256: string, action: string): AppError {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return new AppError('STORE_ARTIFACT_NOT_FOUND', `Artifact ${sha256} does not exist.`, { data: { sha256 } });
  }
  return ioError(action, error);
}

function ioError(action: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const errno = (error as NodeJS.ErrnoException).code ?? 'unknown';
  return new AppError('STORE_IO', `Could not ${action} (${errno}).`, { retryable: errno === 'EBUSY' || errno === 'EAGAIN', data: { errno }, cause: error });
}

async function io<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw ioError(action, error);
  }
}

import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TaskArtifacts } from '../../application/protocol/ports';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';
import { folderManifestDigest, manifestDigests, verifyArtifactBytes } from './artifactIntegrity';

const TASK_ID = /^task_[0-9a-z]{6,40}$/;
const REVISION_ID = /^rev_[0-9]{3,6}$/;
const LEDGER = 'actions/action-ledger.jsonl';

const fsFailure = (what: string, error: unknown) =>
  protocolError(ProtocolErrorCode.storageFailure, `Could not ${what} in the task folder.`, { reason: (error as NodeJS.ErrnoException).code ?? 'unknown' });

/**
 * Task folders under `<root>/<task_id>/`: immutable files written through a temp file and a
 * rename, the append-only ledger, and revision folders published by the artifact publisher.
 * Ids are checked against fixed patterns so no path can leave the root.
 */
export function createFsTaskArtifacts(root: string): TaskArtifacts {
  const taskDir = (taskId: string): string => {
    if (!TASK_ID.test(taskId)) throw protocolError(ProtocolErrorCode.requestInvalid, `invalid task id ${taskId}`);
    return path.join(root, taskId);
  };
  const inside = (taskId: string, relativePath: string): string => {
    const base = taskDir(taskId);
    const full = path.resolve(base, relativePath);
    if (!full.startsWith(`${base}${path.sep}`)) throw protocolError(ProtocolErrorCode.requestInvalid, `path ${relativePath} leaves the task folder`);
    return full;
  };

  /** Reads a task file; a published revision file is checked against its folder's manifest.json first (CDSL_ARTIFACT_CORRUPT). */
  async function readVerified(taskId: string, relativePath: string): Promise<Uint8Array | null> {
    const file = inside(taskId, relativePath);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw fsFailure(`read ${relativePath}`, error);
    }
    verifyArtifactBytes(relativePath, bytes, await folderManifestDigest(taskDir(taskId), relativePath));
    return bytes;
  }

  async function sequencesInLedger(file: string): Promise<Set<number>> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
      throw error;
    }
    const seen = new Set<number>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        seen.add((JSON.parse(line) as { sequence: number }).sequence);
      } catch {
        // A torn last line from a crash mid-append: the row is still unacknowledged in SQLite and is re-appended.
      }
    }
    return seen;
  }

  return {
    taskDir,
    revisionDir(taskId, revisionId) {
      if (!REVISION_ID.test(revisionId)) throw protocolError(ProtocolErrorCode.requestInvalid, `invalid revision id ${revisionId}`);
      return path.join(taskDir(taskId), 'revisions', revisionId);
    },
    async writeOnce(taskId, relativePath, text) {
      const file = inside(taskId, relativePath);
      try {
        const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : Promise.reject(error)));
        if (existing === text) return;
        if (existing !== null) throw protocolError(ProtocolErrorCode.storageFailure, `${relativePath} is immutable and already has other content`, { path: relativePath });
        await mkdir(path.dirname(file), { recursive: true });
        const temp = `${file}.tmp-${randomUUID()}`;
        await writeFile(temp, text);
        await rename(temp, file);
      } catch (error) {
        if ((error as { code?: string }).code === ProtocolErrorCode.storageFailure) throw error;
        throw fsFailure(`write ${relativePath}`, error);
      }
    },
    async writeStep(taskId, relativePath, text) {
      const file = inside(taskId, relativePath);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        const temp = `${file}.tmp-${randomUUID()}`;
        await writeFile(temp, text);
        await rename(temp, file);
      } catch (error) {
        throw fsFailure(`write ${relativePath}`, error);
      }
    },
    async readText(taskId, relativePath) {
      const bytes = await readVerified(taskId, relativePath);
      return bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    },
    readBytes: (taskId, relativePath) => readVerified(taskId, relativePath),
    async appendLedger(taskId, lines) {
      const file = inside(taskId, LEDGER);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        const present = await sequencesInLedger(file);
        const missing = lines.filter((l) => !present.has(l.sequence));
        if (missing.length === 0) return;
        // Repair a torn tail first so the next line starts on its own line.
        const current = await readFile(file, 'utf8').catch(() => '');
        const prefix = current.length > 0 && !current.endsWith('\n') ? '\n' : '';
        await appendFile(file, prefix + missing.map((l) => `${l.line}\n`).join(''));
      } catch (error) {
        throw fsFailure('append to the action ledger', error);
      }
    },
    async sweep(taskId, referenced) {
      const dir = path.join(taskDir(taskId), 'revisions');
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw fsFailure('list revisions', error);
      }
      const removed: string[] = [];
      for (const name of names) {
        if (name.startsWith('.') || !referenced.has(name)) {
          await rm(path.join(dir, name), { recursive: true, force: true });
          removed.push(name);
        }
      }
      return removed;
    },
    async verifyRevision(taskId, revisionId) {
      const dir = this.revisionDir(taskId, revisionId);
      try {
        const digests = manifestDigests(JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')));
        for (const [name, digest] of digests) verifyArtifactBytes(name, await readFile(path.join(dir, name)), digest);
        return (await stat(dir)).isDirectory();
      } catch {
        return false;
      }
    },
  };
}

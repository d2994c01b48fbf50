import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppError } from '../../../../../shared/errors';
import { protocolError, ProtocolErrorCode } from '../../domain/protocol/errors';

/** What a manifest records of one published file. */
export interface ManifestDigest {
  bytes: number;
  sha256: string;
}

/** A published revision as the task's database row records it: its folder and its manifest. */
export interface PublishedRevision {
  dir: string;
  manifest_json: string;
}

const REVISION_FILE = /^revisions\/rev_[0-9]{3,6}\/[^/]+$/;

/** The digests of a manifest by file name (a manifest that is not one is an empty map). */
export function manifestDigests(manifest: unknown): Map<string, ManifestDigest> {
  const files = (manifest as { files?: unknown } | null)?.files;
  const out = new Map<string, ManifestDigest>();
  if (!Array.isArray(files)) return out;
  for (const f of files as { name?: unknown; bytes?: unknown; sha256?: unknown }[]) {
    if (typeof f?.name === 'string' && typeof f.bytes === 'number' && typeof f.sha256 === 'string') out.set(f.name, { bytes: f.bytes, sha256: f.sha256 });
  }
  return out;
}

/**
 * Task-relative path → digest of every file the published revisions' manifests (the database
 * copies, which a tampered folder cannot change) list. Files a manifest does not list (reviews,
 * drawings made later) have no entry.
 */
export function publishedDigests(revisions: readonly PublishedRevision[]): Map<string, ManifestDigest> {
  const out = new Map<string, ManifestDigest>();
  for (const revision of revisions) {
    let manifest: unknown = null;
    try {
      manifest = JSON.parse(revision.manifest_json);
    } catch {
      // A row without a readable manifest lists nothing; the folder's own manifest.json still guards reads.
    }
    for (const [name, digest] of manifestDigests(manifest)) out.set(`${revision.dir}/${name}`, digest);
    // The publisher wrote manifest.json as this very object, pretty-printed: the file itself is guarded too.
    if (manifest !== null) {
      const text = Buffer.from(JSON.stringify(manifest, null, 2), 'utf8');
      out.set(`${revision.dir}/manifest.json`, { bytes: text.byteLength, sha256: createHash('sha256').update(text).digest('hex') });
    }
  }
  return out;
}

/** CDSL_ARTIFACT_CORRUPT naming the file, what the manifest expects and what is on disk. */
export function artifactCorrupt(name: string, expected: ManifestDigest, actual: { bytes: number; sha256: string }): AppError {
  return protocolError(ProtocolErrorCode.artifactCorrupt, `${name} does not match its manifest (sha256 ${actual.sha256.slice(0, 12)}…, ${actual.bytes} bytes; expected ${expected.sha256.slice(0, 12)}…, ${expected.bytes} bytes): it is neither served nor exported`, {
    file: name, expected_sha256: expected.sha256, actual_sha256: actual.sha256, expected_bytes: expected.bytes, actual_bytes: actual.bytes,
  });
}

/** Throws CDSL_ARTIFACT_CORRUPT when `bytes` are not what `expected` records; no entry → nothing to check. */
export function verifyArtifactBytes(name: string, bytes: Uint8Array, expected: ManifestDigest | undefined): void {
  if (!expected) return;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== expected.sha256 || bytes.byteLength !== expected.bytes) throw artifactCorrupt(name, expected, { bytes: bytes.byteLength, sha256 });
}

/** A running digest for files read in chunks (zips): `finish` throws CDSL_ARTIFACT_CORRUPT on a mismatch. */
export function streamingVerifier(name: string, expected: ManifestDigest): { update(chunk: Uint8Array): void; finish(): void } {
  const hash: Hash = createHash('sha256');
  let bytes = 0;
  return {
    update(chunk) {
      hash.update(chunk);
      bytes += chunk.byteLength;
    },
    finish() {
      const sha256 = hash.digest('hex');
      if (sha256 !== expected.sha256 || bytes !== expected.bytes) throw artifactCorrupt(name, expected, { bytes, sha256 });
    },
  };
}

/**
 * The digest the folder's own manifest.json records for a task-relative path of a revision file
 * (`revisions/rev_NNN/<name>`); undefined for any other path or a file the manifest does not list.
 * A revision folder without a readable manifest.json is CDSL_ARTIFACT_CORRUPT: nothing in it can be trusted.
 */
export async function folderManifestDigest(taskDir: string, relativePath: string): Promise<ManifestDigest | undefined> {
  if (!REVISION_FILE.test(relativePath) || path.posix.basename(relativePath) === 'manifest.json') return undefined;
  const manifestPath = path.join(taskDir, path.posix.dirname(relativePath), 'manifest.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      // No manifest at all: only a file that does not exist either is simply absent.
      const present = await access(path.join(taskDir, relativePath)).then(() => true, () => false);
      if (!present) return undefined;
    }
    throw protocolError(ProtocolErrorCode.artifactCorrupt, `the manifest of ${path.posix.dirname(relativePath)} is missing or unreadable, so ${relativePath} cannot be verified`, { file: relativePath });
  }
  return manifestDigests(manifest).get(path.posix.basename(relativePath));
}

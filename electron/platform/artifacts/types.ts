/** A stored artifact: its content address, size and where the immutable file lives. */
export interface ArtifactRef {
  /** Lower-case hex sha256 of the bytes: the artifact's id. */
  sha256: string;
  size: number;
  /** Absolute path `<root>/<first two hex>/<sha256>` (read-only file). */
  path: string;
}

/** What `put` returns: the ref plus the media type the caller declared, for its SQLite row. */
export interface StoredArtifact extends ArtifactRef {
  mediaType: string;
}

export interface PutOptions {
  /** Declared media type (content addressing ignores it; default application/octet-stream). */
  mediaType?: string;
  /** Refuse content larger than this many bytes (STORE_ARTIFACT_TOO_LARGE); checked while streaming. */
  maxBytes?: number;
}

/**
 * Content-addressed, write-once file store for images, screenshots, STEP/GLB/CDSL, renders and
 * reports. Identical content is stored once; files are staged, fsynced and linked into place
 * atomically, then made read-only; an existing artifact is never replaced.
 * Errors: STORE_ARTIFACT_ID_INVALID (not 64 lower-case hex chars), STORE_ARTIFACT_NOT_FOUND,
 * STORE_ARTIFACT_CORRUPT (bytes no longer match the name), STORE_ARTIFACT_TOO_LARGE,
 * STORAGE_FULL (retryable: the disk is full, over quota or read-only; the staged file is removed),
 * STORE_IO (the file system refused otherwise).
 */
export interface ArtifactStore {
  /** Stores bytes or a stream of chunks (e.g. a Node Readable) and returns its address. */
  put(content: Uint8Array | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<StoredArtifact>;
  /** Stores a copy of a file, streamed. */
  putFile(file: string, options?: PutOptions): Promise<StoredArtifact>;
  /** True when the artifact exists. */
  has(sha256: string): Promise<boolean>;
  /** The artifact's bytes, checked against their hash (STORE_ARTIFACT_CORRUPT when they differ). */
  read(sha256: string): Promise<Buffer>;
  /** Re-hashes the stored file; throws STORE_ARTIFACT_CORRUPT on mismatch. */
  verify(sha256: string): Promise<ArtifactRef>;
  /** Where the artifact lives (validates the id, so the result is always inside the root). */
  pathOf(sha256: string): string;
  /**
   * Call before recording a reference in SQLite: proves the artifact exists and is intact and
   * re-asserts its read-only mode, so a row never points at missing or altered bytes.
   */
  markReferenced(sha256: string): Promise<ArtifactRef>;
  /**
   * Deletes staging files last modified before `olderThan` (left by a crash mid-put) and returns
   * how many went. Pass a time well in the past (e.g. one hour ago): another process sharing the
   * store may be writing a staging file right now.
   */
  removeStaleStaging(olderThan: Date): Promise<number>;
}

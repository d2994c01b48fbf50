/** Where a run's report files go (an output folder; the app also keeps the report in SQLite). */
export interface ReviewOutput {
  /** Human label of the destination (folder path) for messages. */
  readonly location: string;
  /**
   * Writes one file at a path relative to the output folder (sub-folders created), replacing
   * an older file of the same run atomically. Errors: REVIEW_OUTPUT_FAILED (not writable).
   */
  writeFile(relativePath: string, data: Uint8Array | string): Promise<void>;
}

/** Raw bytes of one source, before any sniffing or decoding. */
export interface LoadedSource {
  bytes: Uint8Array;
  /** Short, secret-free label (query strings and base64 payloads removed). */
  label: string;
}

/** A text document fetched by URL (analyze_document). */
export interface FetchedDocument {
  text: string;
  contentType?: string;
  /** URL after redirects: relative image references resolve against it. */
  finalUrl: string;
}

/**
 * Loads image sources from http(s) URLs, local paths (~, file://, Windows spellings), data
 * URIs and bare base64. Error codes: VISION_SOURCE_INVALID, VISION_IMAGE_TOO_LARGE (over the
 * byte cap, checked while streaming / from the length before decoding), VISION_URL_BLOCKED
 * (scheme, loopback/private target after DNS, also on each redirect), VISION_DOWNLOAD_FAILED
 * (HTTP status, timeout, too many redirects; retryable for timeouts/5xx), VISION_FILE_NOT_FOUND,
 * VISION_PATH_NOT_ALLOWED (outside the allowed roots after realpath), VISION_NOT_A_REGULAR_FILE.
 */
export interface ImageSourceLoader {
  load(source: string, options?: { maxBytes?: number; signal?: AbortSignal }): Promise<LoadedSource>;
  /**
   * Reads a document by http(s) URL (same network policy) or local path / file:// URL (same
   * path rules; `finalUrl` is then its file:// URL). Same error codes, plus VISION_DOCUMENT_INVALID
   * (not UTF-8 text, or a data URI / base64 given as a document).
   */
  fetchDocument(source: string, signal?: AbortSignal): Promise<FetchedDocument>;
}

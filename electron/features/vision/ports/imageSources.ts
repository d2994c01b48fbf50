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
  /** Fetches a document by http(s) URL with the same network policy. Same error codes. */
  fetchDocument(url: string, signal?: AbortSignal): Promise<FetchedDocument>;
}

import { AppError } from '../../../shared/errors';

/** The fetch signature the gateway needs (global fetch by default; injectable for tests). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A failure worth retrying: a retryable HTTP status (429/408/5xx, with the server's
 * Retry-After), the connection failed or dropped, the per-attempt timeout fired, or a stream
 * ended before the reply was complete.
 */
export class TransportFailure extends Error {
  constructor(
    readonly reason: 'status' | 'network' | 'timeout' | 'interrupted',
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'TransportFailure';
  }
}

/** The caller's abort, as the gateway reports it. */
export function abortedError(): AppError {
  return new AppError('LLM_ABORTED', 'The model call was cancelled.');
}

export interface AttemptOptions {
  fetch: FetchLike;
  url: string;
  headers: Record<string, string>;
  bodyText: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Runs one HTTP attempt: POSTs the body, then lets `consume` read the response while the same
 * timeout and abort signal still apply (a stalled stream counts against the attempt timeout).
 * Errors come out as: AppError LLM_ABORTED when the caller aborted, TransportFailure for
 * network faults and timeouts, and whatever AppError/TransportFailure `consume` threw.
 * Other errors from fetch or body reads are network faults; their text is not kept because
 * it can contain the URL, and the status/reason is all the caller needs.
 */
export async function runHttpAttempt<T>(options: AttemptOptions, consume: (response: Response) => Promise<T>): Promise<T> {
  if (options.signal?.aborted) throw abortedError();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    const response = await options.fetch(options.url, { method: 'POST', headers: options.headers, body: options.bodyText, signal });
    return await consume(response);
  } catch (error) {
    if (options.signal?.aborted) throw abortedError();
    if (timeout.signal.aborted) throw new TransportFailure('timeout', `No complete reply within ${options.timeoutMs} ms.`);
    if (error instanceof AppError || error instanceof TransportFailure) throw error;
    throw new TransportFailure('network', 'The connection to the provider failed.');
  } finally {
    clearTimeout(timer);
  }
}

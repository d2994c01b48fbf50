import { z } from 'zod';

/**
 * Error data as it crosses every boundary (IPC, WebSocket, MCP, CLI JSON).
 * `code` is a stable string grouped by slice: VISION_*, CAD_*, REVIEW_*, CDSL_*, LLM_*, STORE_*,
 * IPC_*, SETTINGS_*. `retryable` tells the caller whether the same call may succeed later.
 * `data` carries structured, secret-free details (never API keys, never stack traces).
 */
export interface AppErrorData {
  code: string;
  message: string;
  retryable: boolean;
  data?: Record<string, unknown>;
}

export const appErrorSchema = z
  .object({
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    message: z.string(),
    retryable: z.boolean(),
    data: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * The one throwable error type of CadSight. Everything thrown inside the app that is meant
 * for a user or a client is an AppError; anything else is wrapped as INTERNAL_ERROR at the boundary.
 */
export class AppError extends Error implements AppErrorData {
  readonly code: string;
  readonly retryable: boolean;
  readonly data?: Record<string, unknown>;

  constructor(code: string, message: string, options: { retryable?: boolean; data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryable = options.retryable ?? false;
    if (options.data !== undefined) this.data = options.data;
  }

  toData(): AppErrorData {
    return { code: this.code, message: this.message, retryable: this.retryable, ...(this.data ? { data: this.data } : {}) };
  }
}

/** True when `value` has the AppErrorData shape (also for plain objects that came over a wire). */
export function isAppErrorData(value: unknown): value is AppErrorData {
  return appErrorSchema.safeParse(value).success;
}

/**
 * Converts anything thrown into AppErrorData. Unknown errors become INTERNAL_ERROR with a
 * generic message: their text may contain paths or secrets and their stack is never sent.
 */
export function toAppErrorData(error: unknown): AppErrorData {
  if (error instanceof AppError) return error.toData();
  if (isAppErrorData(error)) return error;
  return { code: 'INTERNAL_ERROR', message: 'An internal error occurred; see the log for details.', retryable: false };
}

/** Result of a call that crosses a boundary: a value or serialized error data. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorData };

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../../../shared/errors';
import type { Redactor } from './redact';
import type { Logger } from './types';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Parses a level from configuration (e.g. CADSIGHT_LOG_LEVEL); undefined/empty gives `fallback`.
 * Errors: SETTINGS_INVALID naming `source` for anything else.
 */
export function parseLogLevel(value: string | undefined, fallback: LogLevel, source: string): LogLevel {
  if (value === undefined || value.trim() === '') return fallback;
  const level = value.trim().toLowerCase();
  if (Object.hasOwn(LEVEL_RANK, level)) return level as LogLevel;
  throw new AppError('SETTINGS_INVALID', `${source} must be one of ${Object.keys(LEVEL_RANK).join(', ')}.`, { data: { env: source } });
}

export interface CreateLoggerOptions {
  /** Receives each finished JSON line (without newline), or a file path to append lines to. */
  sink: ((line: string) => void) | string;
  /** Lines below this level are dropped. */
  level: LogLevel;
  /** Fields added to every line (e.g. { app: 'cadsight', pid }). */
  base?: Record<string, unknown>;
  /** The runtime's redactor: every line passes through it, including the message. */
  redactor: Redactor;
  /** Clock for the `ts` field (injected for tests). */
  now?: () => Date;
}

/**
 * A JSON-lines Logger: `{"ts","level","msg",...base,...fields}` per line, redacted before it is
 * written. A file sink is appended synchronously (mode 0600) so the last lines before a crash
 * survive. A sink that throws is not retried: logging must never take the app down.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const write = typeof options.sink === 'string' ? fileSink(options.sink) : options.sink;
  const now = options.now ?? (() => new Date());
  const threshold = LEVEL_RANK[options.level];

  const make = (bound: Record<string, unknown>): Logger => {
    const emit = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
      if (LEVEL_RANK[level] < threshold) return;
      const head = { ts: now().toISOString(), level, msg: message };
      // head first for readable lines, and last again so a field cannot overwrite ts/level/msg.
      const entry = options.redactor.redact({ ...head, ...bound, ...fields, ...head });
      try {
        write(JSON.stringify(entry));
      } catch {
        // Deliberately swallowed: a full disk must not turn every log call into a crash.
      }
    };
    return {
      debug: (message, fields) => emit('debug', message, fields),
      info: (message, fields) => emit('info', message, fields),
      warn: (message, fields) => emit('warn', message, fields),
      error: (message, fields) => emit('error', message, fields),
      child: (fields) => make({ ...bound, ...fields }),
    };
  };
  return make({ ...options.base });
}

function fileSink(file: string): (line: string) => void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  return (line) => appendFileSync(file, `${line}\n`, { mode: 0o600 });
}

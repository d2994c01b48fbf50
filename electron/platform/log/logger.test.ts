import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, parseLogLevel } from './logger';
import { createRedactor, REDACTED } from './redact';

const fixedClock = () => new Date('2026-05-06T07:08:09.000Z');

describe('createLogger', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes one JSON object per line with base, child and call fields', () => {
    const lines: string[] = [];
    const log = createLogger({ sink: (line) => lines.push(line), level: 'info', base: { app: 'cadsight' }, redactor: createRedactor(), now: fixedClock });
    log.child({ slice: 'vision' }).info('turn done', { ms: 12, level: 'spoofed' });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ ts: '2026-05-06T07:08:09.000Z', level: 'info', msg: 'turn done', app: 'cadsight', slice: 'vision', ms: 12 }]);
  });

  it('drops lines below the configured level', () => {
    const lines: string[] = [];
    const log = createLogger({ sink: (line) => lines.push(line), level: 'warn', redactor: createRedactor() });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['w', 'e']);
  });

  it('redacts registered secrets in the message and the fields', () => {
    const lines: string[] = [];
    const redactor = createRedactor();
    const log = createLogger({ sink: (line) => lines.push(line), level: 'debug', redactor });
    redactor.registerSecret('secret-value-123456');
    log.error('call failed for secret-value-123456', { request: { headers: { authorization: 'Bearer secret-value-123456' } } });
    expect(lines[0]).not.toContain('secret-value-123456');
    expect(JSON.parse(lines[0]!).request.headers.authorization).toBe(REDACTED);
  });

  it('appends to a log file given by path, creating its folder', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cadsight-log-'));
    const file = path.join(dir, 'logs', 'app.jsonl');
    const log = createLogger({ sink: file, level: 'info', redactor: createRedactor(), now: fixedClock });
    log.info('one');
    log.info('two');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['one', 'two']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps running when the sink throws', () => {
    const log = createLogger({ sink: () => { throw new Error('disk full'); }, level: 'info', redactor: createRedactor() });
    expect(() => log.info('x')).not.toThrow();
  });

  it('parses log levels from configuration and refuses unknown ones', () => {
    expect(parseLogLevel(undefined, 'info', 'CADSIGHT_LOG_LEVEL')).toBe('info');
    expect(parseLogLevel(' DEBUG ', 'info', 'CADSIGHT_LOG_LEVEL')).toBe('debug');
    expect(() => parseLogLevel('verbose', 'info', 'CADSIGHT_LOG_LEVEL')).toThrow(
      expect.objectContaining({ code: 'SETTINGS_INVALID', data: { env: 'CADSIGHT_LOG_LEVEL' } }),
    );
  });
});

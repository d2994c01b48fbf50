import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../shared/errors';
import { createIpcRouter } from './router';

const table = {
  add: { input: z.object({ a: z.number(), b: z.number() }).strict(), output: z.object({ sum: z.number() }).strict() },
  fail: { input: z.object({}).strict(), output: z.object({}).strict() },
  crash: { input: z.object({}).strict(), output: z.object({}).strict() },
  lie: { input: z.object({}).strict(), output: z.object({ n: z.number() }).strict() },
};

function makeRouter() {
  const internal = vi.fn();
  const router = createIpcRouter(
    table,
    {
      add: ({ a, b }) => ({ sum: a + b }),
      fail: () => {
        throw new AppError('SETTINGS_NOT_FOUND', 'No provider "x".', { data: { id: 'x' } });
      },
      crash: () => {
        throw new Error('ENOENT /home/user/secret-path sk-live-123');
      },
      lie: () => ({ n: 'not a number' }) as unknown as { n: number },
    },
    internal,
  );
  return { router, internal };
}

describe('IPC router', () => {
  it('runs the handler with validated input and returns its value', async () => {
    const { router } = makeRouter();
    expect(await router.dispatch('add', { a: 2, b: 3 }, { transport: 'test' })).toEqual({ ok: true, value: { sum: 5 } });
  });

  it('refuses input that does not match the schema, naming the field', async () => {
    const { router } = makeRouter();
    const result = await router.dispatch('add', { a: 2, b: 'three' }, { transport: 'test' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('IPC_INVALID_INPUT');
      expect(result.error.message).toContain('b');
    }
  });

  it('refuses unknown channels, including prototype names', async () => {
    const { router } = makeRouter();
    for (const name of ['nope', '__proto__', 'constructor', 'toString']) {
      const result = await router.dispatch(name, {}, { transport: 'test' });
      expect(result).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CHANNEL' } });
    }
  });

  it('passes typed errors through as data', async () => {
    const { router, internal } = makeRouter();
    const result = await router.dispatch('fail', {}, { transport: 'test' });
    expect(result).toEqual({ ok: false, error: { code: 'SETTINGS_NOT_FOUND', message: 'No provider "x".', retryable: false, data: { id: 'x' } } });
    expect(internal).not.toHaveBeenCalled();
  });

  it('hides the text of unexpected errors from the caller and reports them to the sink', async () => {
    const { router, internal } = makeRouter();
    const result = await router.dispatch('crash', {}, { transport: 'test' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(result)).not.toContain('secret-path');
    expect(JSON.stringify(result)).not.toContain('sk-live');
    expect(internal).toHaveBeenCalledOnce();
  });

  it('treats a handler returning the wrong shape as an internal error', async () => {
    const { router } = makeRouter();
    expect(await router.dispatch('lie', {}, { transport: 'test' })).toMatchObject({ ok: false, error: { code: 'INTERNAL_ERROR' } });
  });

  it('never throws and always answers with a Result, whatever arrives', async () => {
    const { router } = makeRouter();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('add', 'fail', 'nope', ''), fc.jsonValue(), async (channel, input) => {
        const result = await router.dispatch(channel, input, { transport: 'test' });
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 200 },
    );
  });
});

import type { Result } from '../../shared/errors';
import { ipcChannels, type AppBridge } from '../../shared/ipc/channels';

/** Answers one channel's call in a test (any input; the contract is not checked here). */
export type ScriptedHandler = (input: any) => Result<unknown> | Promise<Result<unknown>>;

/**
 * Test support: a bridge answering each channel from `handlers` (an unscripted channel answers
 * TEST_NOT_SCRIPTED), recording every call, and letting the test push host events with `emit`.
 * `extras`: the desktop-only bridge methods (browser mode when absent).
 */
export function scriptedBridge(handlers: Record<string, ScriptedHandler>, extras: Partial<Pick<AppBridge, 'pathForFile'>> = {}) {
  const calls: { channel: string; input: any }[] = [];
  const listeners = new Map<string, ((payload: any) => void)[]>();
  const on = (event: string, listener: (payload: any) => void) => {
    listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    return () => undefined;
  };
  const bridge = new Proxy({ on, ...extras } as Record<string, unknown>, {
    get: (target, name: string) =>
      name in target
        ? target[name]
        : !(name in ipcChannels)
          ? undefined // not a channel: desktop-only helpers exist only when the test gives them
          : async (input: unknown) => {
            calls.push({ channel: name, input });
            const handler = handlers[name];
            return handler ? handler(input) : { ok: false, error: { code: 'TEST_NOT_SCRIPTED', message: name, retryable: false } };
          },
  }) as unknown as AppBridge;
  const emit = (event: string, payload: unknown): void => listeners.get(event)?.forEach((l) => l(payload));
  return { bridge, calls, emit };
}

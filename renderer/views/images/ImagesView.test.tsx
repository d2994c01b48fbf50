import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { AppBridge } from '../../../shared/ipc/channels';
import { createAppStore } from '../../store/appStore';
import { StoreProvider } from '../../store/StoreContext';
import { ImagesView } from './ImagesView';

/** A PNG signature and its end chunk: the smallest file the drop-time completeness check accepts. */
const TINY_PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const usage = { calls: 1, promptTokens: 812, completionTokens: 40, contextBytes: 20_480, latencyMs: 1234.4 };
const baseSettings = {
  locale: 'en' as const,
  providers: [] as unknown[],
  roles: { vision: null as null | { providerId: string; model: string }, author: null, reviewer: null },
  cad: { host: '127.0.0.1', port: 8080, allowRemote: false },
  allowedRoots: [],
  secretStorage: { available: false, backend: 'env' },
  envOverrides: [],
};
const provider = { id: 'qwen', label: 'Qwen', preset: 'qwen', protocol: 'chat-completions', baseUrl: 'https://example.invalid/v1', models: ['qwen-vl-max'], forceStreaming: false, keyConfigured: true, keySource: 'env' };

interface FakeHost {
  bridge: AppBridge;
  calls: { channel: string; input: any }[];
}

/** A bridge over an in-memory "host": the view only ever sees AppBridge results. */
function fakeHost(options: { settings?: typeof baseSettings; analyze?: (input: any) => Result<unknown>; listed?: boolean; turns?: unknown[] } = {}): FakeHost {
  const calls: FakeHost['calls'] = [];
  let deleted = false;
  const session = {
    id: 'vs_1',
    summary: 'A flange drawing',
    createdAt: 1,
    lastAccessAt: 2,
    providerId: 'qwen',
    model: 'qwen-vl-max',
    images: [{ index: 0, origin: 'source', label: 'flange.png', width: 800, height: 600 }],
    turns: options.turns ?? [{ seq: 0, kind: 'analyze', prompt: 'What is this?', imageIndexes: [0], reply: 'A flange with four holes.', createdAt: 2, usage }],
    usage,
  };
  const ok = (value: unknown): Result<unknown> => ({ ok: true, value });
  const handlers: Record<string, (input: any) => Result<unknown>> = {
    getSettings: () => ok(options.settings ?? baseSettings),
    visionListSessions: () => ok(!deleted && (options.listed || calls.some((c) => c.channel === 'visionAnalyze')) ? [{ id: 'vs_1', summary: session.summary, sources: ['flange.png'], createdAt: 1, lastAccessAt: 2, iterations: 1, imageCount: 1, usage }] : []),
    visionGetSession: () => ok(session),
    visionGetImage: () => ok({ mimeType: 'image/png', dataBase64: 'iVBORw0KGgo=', width: 8, height: 6 }),
    visionRenameSession: (input) => ((session.summary = input.summary), ok({ sessionId: input.sessionId, summary: input.summary })),
    visionDeleteSession: (input) => ((deleted = true), ok({ sessionId: input.sessionId })),
    visionAnalyze: options.analyze ?? (() => ok({ sessionId: 'vs_1', summary: session.summary, description: 'A flange with four holes.', usage, sessionUsage: usage, imageIndexes: [0], providerId: 'qwen', model: 'qwen-vl-max' })),
  };
  const bridge = new Proxy({ on: () => () => {} } as Record<string, unknown>, {
    get(target, channel: string) {
      if (channel in target) return target[channel];
      return async (input: unknown) => {
        calls.push({ channel, input });
        const handler = handlers[channel];
        if (!handler) throw new Error(`unexpected channel ${channel}`);
        return handler(input);
      };
    },
  }) as unknown as AppBridge;
  return { bridge, calls };
}

/** The Images view alone (other areas' views are not involved), with settings loaded as the shell does. */
async function renderImages(host: FakeHost) {
  const store = createAppStore(host.bridge, 'en');
  await store.getState().loadSettings();
  store.getState().navigate('images');
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <ImagesView />
      </StoreProvider>,
    );
  });
  return store;
}

afterEach(cleanup);

describe('Images view', () => {
  it('sends a picked image with the question to the picked model and shows the answer with its latency and token usage', async () => {
    const host = fakeHost({ settings: { ...baseSettings, providers: [provider], roles: { ...baseSettings.roles, vision: { providerId: 'qwen', model: 'qwen-vl-max' } } } });
    await renderImages(host);
    const file = new File([TINY_PNG], 'flange.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.change(screen.getByTestId('vision-file-input'), { target: { files: [file] } });
    });
    await waitFor(() => expect(screen.getAllByTestId('vision-pending')).toHaveLength(1));
    fireEvent.change(screen.getByTestId('vision-prompt'), { target: { value: 'What is this?' } });
    fireEvent.change(screen.getByTestId('vision-model'), { target: { value: 'qwen\u0000qwen-vl-max' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-send'));
    });
    await waitFor(() => expect(screen.getByTestId('vision-reply').textContent).toBe('A flange with four holes.'));
    const analyze = host.calls.find((c) => c.channel === 'visionAnalyze')!.input;
    expect(analyze).toMatchObject({ prompt: 'What is this?', providerId: 'qwen', model: 'qwen-vl-max', images: [{ name: 'flange.png', mimeType: 'image/png', dataBase64: btoa(String.fromCharCode(...TINY_PNG)) }] });
    expect(analyze.sessionId).toBeUndefined();
    expect(screen.getByTestId('vision-turn-usage').textContent).toBe('1234 ms · 812 → 40 tokens · 20 KB sent');
    expect(screen.getByTestId('vision-session-vs_1')).toBeTruthy();
    expect(screen.queryAllByTestId('vision-pending')).toHaveLength(0);
  });

  it('shows the missing-model state with a link that opens Settings', async () => {
    const store = await renderImages(fakeHost());
    expect(screen.getByTestId('vision-not-configured').textContent).toContain('No vision model is configured yet');
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-open-settings'));
    });
    expect(store.getState().view).toBe('settings');
  });

  it('shows a typed LLM_NOT_CONFIGURED answer inline with its code and a Settings button', async () => {
    const host = fakeHost({
      settings: { ...baseSettings, providers: [provider] },
      analyze: () => ({ ok: false, error: { code: 'LLM_NOT_CONFIGURED', message: 'No model is chosen for the vision role.', retryable: false } }),
    });
    const store = await renderImages(host);
    await act(async () => {
      fireEvent.change(screen.getByTestId('vision-file-input'), { target: { files: [new File([TINY_PNG], 'x.png', { type: 'image/png' })] } });
    });
    await waitFor(() => expect(screen.getAllByTestId('vision-pending')).toHaveLength(1));
    fireEvent.change(screen.getByTestId('vision-prompt'), { target: { value: 'Hi' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-send'));
    });
    const error = await screen.findByTestId('vision-error');
    expect(error.getAttribute('data-code')).toBe('LLM_NOT_CONFIGURED');
    expect(error.textContent).toContain('Error code: LLM_NOT_CONFIGURED');
    expect(screen.getAllByTestId('vision-pending')).toHaveLength(1);
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-open-settings'));
    });
    expect(store.getState().view).toBe('settings');
  });

  it('removes a file the engine refused from the tray, names it, and offers no Retry that could not succeed', async () => {
    const host = fakeHost({
      settings: { ...baseSettings, providers: [provider], roles: { ...baseSettings.roles, vision: { providerId: 'qwen', model: 'qwen-vl-max' } } },
      analyze: () => ({ ok: false, error: { code: 'VISION_IMAGE_CORRUPT', message: 'The image could not be decoded.', retryable: false, data: { sourceIndex: 1 } } }),
    });
    await renderImages(host);
    await act(async () => {
      fireEvent.change(screen.getByTestId('vision-file-input'), { target: { files: [new File([TINY_PNG], 'good.png', { type: 'image/png' }), new File([TINY_PNG], 'odd.png', { type: 'image/png' })] } });
    });
    await waitFor(() => expect(screen.getAllByTestId('vision-pending')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('vision-prompt'), { target: { value: 'Hi' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-send'));
    });
    const error = await screen.findByTestId('vision-error');
    expect(error.textContent).toContain('odd.png');
    expect(screen.queryByTestId('vision-retry')).toBeNull();
    expect(screen.getAllByTestId('vision-pending').map((item) => item.textContent)).toEqual([expect.stringContaining('good.png')]);
  });

  it('retries a failed turn with the same question and images', async () => {
    let attempts = 0;
    const host = fakeHost({
      settings: { ...baseSettings, providers: [provider], roles: { ...baseSettings.roles, vision: { providerId: 'qwen', model: 'qwen-vl-max' } } },
      analyze: () =>
        ++attempts === 1
          ? { ok: false, error: { code: 'LLM_TRANSPORT_UNAVAILABLE', message: 'Provider unreachable.', retryable: true } }
          : { ok: true, value: { sessionId: 'vs_1', summary: 'A flange drawing', description: 'ok', usage, sessionUsage: usage, imageIndexes: [0], providerId: 'qwen', model: 'qwen-vl-max' } },
    });
    await renderImages(host);
    await act(async () => {
      fireEvent.change(screen.getByTestId('vision-file-input'), { target: { files: [new File([TINY_PNG], 'x.png', { type: 'image/png' })] } });
    });
    await waitFor(() => expect(screen.getAllByTestId('vision-pending')).toHaveLength(1));
    fireEvent.change(screen.getByTestId('vision-prompt'), { target: { value: 'Hi' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-send'));
    });
    await act(async () => {
      fireEvent.click(await screen.findByTestId('vision-retry'));
    });
    await waitFor(() => expect(screen.queryByTestId('vision-error')).toBeNull());
    const sent = host.calls.filter((c) => c.channel === 'visionAnalyze').map((c) => ({ prompt: c.input.prompt, images: c.input.images }));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it("renders answers as Markdown and keeps the engine's instructions and <summary> tags out of the bubble and title", async () => {
    const host = fakeHost({
      listed: true,
      turns: [
        {
          seq: 0,
          kind: 'analyze',
          prompt: 'What is this?\n\nAfter your answer, add one final line of the form "SUMMARY: <one sentence naming what the images show>".',
          imageIndexes: [0],
          reply: '## Parts\n- **Flange** DN50\n- 4 × `M16` bolts\n<summary>A flange drawing</summary>',
          createdAt: 2,
          usage,
        },
      ],
    });
    const store = await renderImages(host);
    await act(async () => {
      await store.getState().openVisionSession('vs_1');
    });
    const turn = screen.getByTestId('vision-turn-0');
    expect(turn.querySelector('.vision-bubble.user')!.textContent).not.toMatch(/SUMMARY|After your answer/);
    const reply = screen.getByTestId('vision-reply');
    expect(reply.querySelector('li strong')?.textContent).toBe('Flange');
    expect(reply.querySelector('code')?.textContent).toBe('M16');
    expect(reply.textContent).not.toContain('summary');
    expect(document.querySelector('.images-title')!.textContent).toBe('A flange drawing');
  });

  it('renames and deletes a session from the list', async () => {
    const host = fakeHost({ listed: true });
    const store = await renderImages(host);
    await act(async () => {
      await store.getState().openVisionSession('vs_1');
    });
    fireEvent.click(screen.getByTestId('vision-rename'));
    fireEvent.change(screen.getByTestId('vision-rename-input'), { target: { value: 'Flange DN50' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-rename-save'));
    });
    expect(host.calls.find((c) => c.channel === 'visionRenameSession')!.input).toEqual({ sessionId: 'vs_1', summary: 'Flange DN50' });
    await waitFor(() => expect(screen.getByTestId('vision-session-vs_1').textContent).toContain('Flange DN50'));
    fireEvent.click(screen.getByTestId('vision-delete'));
    expect(host.calls.some((c) => c.channel === 'visionDeleteSession')).toBe(false);
    await act(async () => {
      fireEvent.click(screen.getByTestId('vision-delete'));
    });
    await waitFor(() => expect(screen.queryByTestId('vision-session-vs_1')).toBeNull());
    expect(store.getState().visionSession).toBeNull();
  });
});

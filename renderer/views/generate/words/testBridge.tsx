import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { AppErrorData } from '../../../../shared/errors';
import type { AppBridge } from '../../../../shared/ipc/channels';
import { genTaskSummarySchema, type GenModelConformance, type GenTaskDetail } from '../../../../shared/ipc/contracts/generation';
import type { Locale } from '../../../i18n/messages';
import { createAppStore, type AppStore } from '../../../store/appStore';
import type { GenTaskEvent } from '../../../store/generationSlice';
import type { SettingsView } from '../../../store/settingsSlice';
import { StoreProvider } from '../../../store/StoreContext';
import { GenerateView } from '../GenerateView';
import { candidateReviewJson, completedLedger, requirementsReviewJson } from './taskFixtures';

/** Test support for the "Describe a part" view tests: a bridge over fixture details, with spies. */
export const settings: SettingsView = {
  locale: 'en',
  providers: [
    { id: 'openai', label: 'OpenAI', preset: 'openai', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', models: ['gpt-4.1', 'gpt-4.1-mini'], forceStreaming: false, keyConfigured: true, keySource: 'secret-store', allowLocalNetwork: false },
  ],
  roles: { vision: null, author: { providerId: 'openai', model: 'gpt-4.1' }, reviewer: { providerId: 'openai', model: 'gpt-4.1-mini' } },
  cad: { host: '127.0.0.1', port: 8765, allowRemote: false },
  allowedRoots: [],
  secretStorage: { available: true, backend: 'test' },
  envOverrides: [],
} as SettingsView;

const ok = <T,>(value: T) => ({ ok: true as const, value });
const fail = (error: AppErrorData) => ({ ok: false as const, error });
const utf8Base64 = (text: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

const CHANNELS = ['genList', 'genShow', 'genLedger', 'genStart', 'genAnswer', 'genResume', 'genCancel', 'genModelStatus', 'genCheckModel', 'genGetArtifact', 'genExportZip', 'genMakeDrawing'] as const;
type Channel = (typeof CHANNELS)[number];

export interface TestBridge {
  bridge: AppBridge;
  /** Current genShow answer (per revision when set in `byRevision`). */
  detail: GenTaskDetail;
  byRevision: Record<string, GenTaskDetail>;
  ledger: Record<string, unknown>[];
  models: Record<string, GenModelConformance>;
  calls: Record<Channel, ReturnType<typeof vi.fn>>;
  /** Delivers a genTaskEvent as the host would. */
  emit(event: GenTaskEvent): void;
  /** Makes the next calls of `channel` fail with `error`. */
  failWith(channel: Channel, error: AppErrorData): void;
}

/** A genMakeDrawing reply as the host gives it for the flange (one blocking finding when the A4 sheet was forced, to show the mark). */
export function drawingOf(input: { taskId: string; revision?: string; sheet?: string; projection?: string }) {
  const revision = input.revision ?? 'rev_003';
  const dir = `revisions/${revision}/drawing`;
  const blocking = input.sheet === 'A4' ? 1 : 0;
  return {
    taskId: input.taskId, revision, sheet: input.sheet && input.sheet !== 'auto' ? input.sheet : 'A3', scale: '1:1', projection: input.projection ?? 'first-angle',
    findings: { total: 3 + blocking, blocking, major: 1, minor: 2, info: 0 }, hasBlocking: blocking > 0,
    claims: [{ claimId: 'claim_001', kind: 'bounding_box', dimensions: ['Ø120', '12'], reason: null }, { claimId: 'claim_002', kind: 'hole_pattern', dimensions: ['4×Ø10 EQS'], reason: null }, { claimId: 'claim_003', kind: 'volume_mm3', dimensions: [], reason: 'not_dimensional' }],
    dxf: `${dir}/drawing.dxf`, pdf: `${dir}/drawing.pdf`, report: `${dir}/drawing-report.json`, preview: `${dir}/drawing.png`,
  };
}

export function testBridge(detail: GenTaskDetail): TestBridge {
  const listeners: ((event: GenTaskEvent) => void)[] = [];
  const failures: Record<string, AppErrorData> = {};
  const state: TestBridge = {
    detail,
    byRevision: {},
    ledger: completedLedger(),
    models: {},
    calls: {} as TestBridge['calls'],
    bridge: null as unknown as AppBridge,
    emit: (event) => listeners.forEach((l) => l(event)),
    failWith: (channel, error) => {
      failures[channel] = error;
    },
  };
  const summary = () => genTaskSummarySchema.parse(state.detail.task);
  const handlers: Record<Channel, (input: never) => unknown> = {
    genList: (input: { state?: string }) => [summary()].filter((t) => !input.state || t.state === input.state),
    genShow: (input: { revision?: string }) => (input.revision ? state.byRevision[input.revision] : undefined) ?? state.detail,
    genLedger: () => state.ledger,
    genStart: (input: { request: string }) => ({ ...summary(), request: input.request }),
    genAnswer: () => summary(),
    genResume: () => summary(),
    genCancel: () => summary(),
    genModelStatus: (input: { models?: string[] }) =>
      (input.models ?? []).map((model) => state.models[model] ?? { model, status: 'unchecked', checkedAt: null, passedChecks: 0, totalChecks: 0, failures: [] }),
    genCheckModel: (input: { model: string }) => ({ model: input.model, status: 'failed', checkedAt: '2026-12-01T22:00:00.000Z', passedChecks: 24, totalChecks: 26, failures: [{ name: 'fragment:hole', detail: 'answered in prose instead of a tool call' }, { name: 'choice', detail: 'called two tools' }] }),
    genGetArtifact: (input: { taskId: string; name: string }) => ({ taskId: input.taskId, name: input.name, mediaType: 'application/octet-stream', size: 1, base64: input.name.includes('/reviews/') ? utf8Base64(candidateReviewJson()) : input.name.endsWith('.json') ? utf8Base64(requirementsReviewJson()) : input.name.endsWith('.svg') ? btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"></svg>') : btoa('ISO-10303-21;') }),
    genMakeDrawing: (input: { taskId: string; revision?: string; sheet?: string; projection?: string }) => drawingOf(input),
    genExportZip: (input: { taskId: string; revision?: string }) => ({ taskId: input.taskId, fileName: `${input.taskId}-${input.revision}.zip`, size: 4, entries: ['requirements.md'], base64: btoa('PK\u0003\u0004') }),
  };
  const bridge: Record<string, unknown> = {
    on: (event: string, listener: (e: GenTaskEvent) => void) => {
      if (event === 'genTaskEvent') listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  for (const channel of CHANNELS) {
    const handler = handlers[channel];
    const spy = vi.fn(async (input: never) => (failures[channel] ? fail(failures[channel]) : ok(handler(input))));
    state.calls[channel] = spy;
    bridge[channel] = spy;
  }
  state.bridge = bridge as unknown as AppBridge;
  return state;
}

/** Renders the Generate area ("Describe a part" is its default tab) around a fresh store. */
export async function renderGenerate(b: TestBridge, locale: Locale = 'en', openTask?: string): Promise<AppStore> {
  const store = createAppStore(b.bridge, locale);
  store.setState({ settings: { ...settings, locale } });
  if (openTask) await store.getState().openGenTask(openTask);
  return mountGenerateView(store);
}

/** Mounts the Generate area around a store the test has prepared. */
export async function mountGenerateView(store: AppStore): Promise<AppStore> {
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <GenerateView />
      </StoreProvider>,
    );
  });
  return store;
}

/**
 * Records the files the view saves instead of navigating (saveFile clicks a temporary anchor):
 * installs the hooks before each test, restores them after, and returns the list it fills.
 */
export function recordSavedFiles(): { name: string; type: string }[] {
  const saved: { name: string; type: string }[] = [];
  beforeEach(() => {
    saved.length = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push({ name: '', type: blob.type }), 'blob:test/1'), revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const last = saved[saved.length - 1];
      if (last) last.name = this.download;
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
  return saved;
}

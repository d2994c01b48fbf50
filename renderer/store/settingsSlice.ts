import type { z } from 'zod';
import type { providerInputSchema, settingsViewSchema, SystemCheckReport } from '../../shared/ipc/contracts/platform';
import type { AppErrorData } from '../../shared/errors';
import type { ShellSlice } from './shellSlice';
import type { SliceContext } from './types';

export type SettingsView = z.output<typeof settingsViewSchema>;
export type ProviderInput = z.input<typeof providerInputSchema>;
export type RoleName = 'vision' | 'author' | 'reviewer';

export type ProviderTestState =
  | { status: 'running' }
  | { status: 'ok'; model: string; latencyMs: number }
  | { status: 'failed'; error: AppErrorData };

export type SystemCheckState = { status: 'running' } | { status: 'done'; report: SystemCheckReport } | { status: 'failed'; error: AppErrorData };

/** Settings as the main side reports them (keys only as `keyConfigured`). */
export interface SettingsSlice {
  settings: SettingsView | null;
  providerTests: Record<string, ProviderTestState>;
  loadSettings(): Promise<void>;
  changeLocale(locale: SettingsView['locale']): Promise<void>;
  /** Returns the error instead of reporting it, so the form can show it next to the fields. */
  saveProvider(input: ProviderInput): Promise<AppErrorData | null>;
  deleteProvider(id: string): Promise<void>;
  setRoleModel(role: RoleName, value: { providerId: string; model: string } | null): Promise<void>;
  /** `allowRemote`: browser mode may connect to AutoCAD on another host. */
  saveCad(host: string, port: number, allowRemote: boolean): Promise<void>;
  testProvider(id: string): Promise<void>;
  systemCheck: SystemCheckState | null;
  /** Runs Settings → System check; failures of single checks are rows of the report. */
  runSystemCheck(liveModels: boolean): Promise<void>;
}

export function createSettingsSlice<S extends ShellSlice & SettingsSlice>({ set, get, bridge }: SliceContext<S>): SettingsSlice {
  const apply = (settings: SettingsView | undefined): void => {
    if (settings) set({ settings, locale: settings.locale } as Partial<S>);
  };
  return {
    settings: null,
    providerTests: {},
    systemCheck: null,
    async runSystemCheck(liveModels) {
      set({ systemCheck: { status: 'running' } } as Partial<S>);
      const result = await bridge.runSystemCheck({ liveModels });
      set({ systemCheck: result.ok ? { status: 'done', report: result.value } : { status: 'failed', error: result.error } } as Partial<S>);
    },
    async loadSettings() {
      apply(get().unwrap(await bridge.getSettings({})));
    },
    async changeLocale(locale) {
      apply(get().unwrap(await bridge.setLocale({ locale })));
    },
    async saveProvider(input) {
      const result = await bridge.saveProvider(input);
      if (!result.ok) return result.error;
      apply(result.value);
      return null;
    },
    async deleteProvider(id) {
      apply(get().unwrap(await bridge.deleteProvider({ id })));
    },
    async setRoleModel(role, value) {
      apply(get().unwrap(await bridge.setRoleModel({ role, value })));
    },
    async saveCad(host, port, allowRemote) {
      apply(get().unwrap(await bridge.setGeneral({ cad: { host, port, allowRemote } })));
    },
    async testProvider(id) {
      set((s) => ({ providerTests: { ...s.providerTests, [id]: { status: 'running' } } }) as Partial<S>);
      const result = await bridge.testProvider({ id });
      const state: ProviderTestState = result.ok
        ? { status: 'ok', model: result.value.model, latencyMs: Math.round(result.value.latencyMs) }
        : { status: 'failed', error: result.error };
      set((s) => ({ providerTests: { ...s.providerTests, [id]: state } }) as Partial<S>);
    },
  };
}

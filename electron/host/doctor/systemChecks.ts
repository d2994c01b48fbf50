import type { CadEndpoint } from '../../features/cadlink/index';
import { createSqliteTaskRepository, LATEST_CONFORMANCE, type CadRuntime } from '../../features/cadgen/index';
import { providerPresets, providersFromEnv, type EnvSource, type RetryOptions } from '../../platform/llm';
import type { PlatformRuntime } from '../composition/platformRuntime';
import { cadCheck } from './cadCheck';
import { dataFolderCheck } from './dataFolderCheck';
import { failedOutcome, type DoctorCheck } from './doctorCheck';
import { kernelCheck } from './kernelCheck';
import { providerCheck, type ProviderCandidate } from './providerChecks';
import { cjkFontCheck, electronCheck, ffmpegCheck, nodeCheck } from './runtimeChecks';

/** Retries are bounded tightly: a system check should report a broken provider quickly. */
export const CHECK_RETRY: RetryOptions = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8000, totalBudgetMs: 60_000 };

export interface SystemCheckInputs {
  platform: Pick<PlatformRuntime, 'layout' | 'db' | 'settings'>;
  env: EnvSource;
  /** Run each provider's capability checks (sends a few short requests per provider). */
  liveModels: boolean;
  /** The app's warm kernel (owned: false), or a fresh one the check disposes (owned: true). */
  kernel: { get(): CadRuntime; owned: boolean };
  /** Providers from environment variables too (the CLI and MCP servers read them). */
  envProviders: boolean;
  /** An address named on the command line; otherwise the one in Settings. */
  cad?: CadEndpoint;
}

/** An environment provider's name: its preset's (`qwen` → "Qwen (DashScope)"), else its id. */
function presetName(id: string): string {
  return id in providerPresets ? providerPresets[id as keyof typeof providerPresets].label : id;
}

function envCandidates(env: EnvSource): Array<DoctorCheck | ProviderCandidate> {
  try {
    return providersFromEnv(env).providers.map((provider) => ({ id: provider.id, name: presetName(provider.id), source: 'environment' as const, resolve: () => provider }));
  } catch (error) {
    // An incomplete env provider (e.g. CHAT_MODEL without CHAT_BASE_URL) is one failed row.
    return [{ id: 'provider:environment', group: 'provider', label: 'Providers (environment)', run: async () => failedOutcome(error) }];
  }
}

/** Every row of the system check, in the order a user reads them. */
export function systemChecks(inputs: SystemCheckInputs): DoctorCheck[] {
  const { settings } = inputs.platform;
  const view = settings.getSettings();
  const fromSettings: ProviderCandidate[] = view.providers.map((p) => ({ id: p.id, name: p.label, source: 'settings', resolve: () => settings.resolveProvider({ providerId: p.id }) }));
  const fromEnv = inputs.envProviders ? envCandidates(inputs.env) : [];
  const generationStore = createSqliteTaskRepository(inputs.platform.db, { now: () => new Date() });
// Conformance rows are stored per model id (`provider/model`); the doctor shows the latest.
  const providerOptions = { liveModels: inputs.liveModels, retry: CHECK_RETRY, protocolCapability: (id: string, model: string) => generationStore.capabilities(`${id}/${model}`, LATEST_CONFORMANCE) };
  const providerRows = [...fromSettings, ...fromEnv].map((c) => ('run' in c ? c : providerCheck(c, providerOptions)));
  const noProviders: DoctorCheck = {
    id: 'provider:none',
    group: 'provider',
    label: 'Model providers',
    run: async () => ({
      status: 'warn',
      detail: 'none configured: review runs rules only; add one in Settings or set DEFAULT_PROVIDER and its key',
      finding: { code: 'providers-none', params: {} },
    }),
  };
  const cadEndpoint = inputs.cad ?? view.cad;
  const cadExplicit = inputs.cad !== undefined || view.envOverrides.some((field) => field.startsWith('cad'));
  return [
    nodeCheck(),
    electronCheck(),
    kernelCheck(inputs.kernel),
    ffmpegCheck(inputs.env.FFMPEG_PATH?.trim() || 'ffmpeg'),
    cjkFontCheck(),
    dataFolderCheck(inputs.platform),
    ...(providerRows.length > 0 ? providerRows : [noProviders]),
    cadCheck(cadEndpoint, cadExplicit),
  ];
}

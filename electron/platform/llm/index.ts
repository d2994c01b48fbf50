// Public entry of the LLM gateway: the port types, the gateway factory, env/preset resolution
// and the conformance suite. Slices depend on the LlmGateway port; composition roots build it.
export type * from './types';
export { assistantTurn } from './assistantTurn';
export { createLlmGateway, systemClock, type LlmClock, type LlmGatewayOptions } from './gateway';
export { createRetryBudget, DEFAULT_MAX_ATTEMPTS, type RetryOptions } from './retryPolicy';
export type { FetchLike } from './httpTransport';
export { envProviderIds, keyEnvNames, providerFromEnv, providersFromEnv, type EnvProviderId, type EnvProviders, type EnvSource } from './envProviders';
export { conformanceChecks, runLlmConformance, type ConformanceCheckName, type ConformanceCheckResult, type ConformanceReport } from './conformance';
export { providerPresets, type ProviderPreset } from './presets';

import { providerPresets, type ProviderPreset } from '../llm/presets';

/** CADSIGHT_KEY_<PROVIDER ID> with every non-alphanumeric character as "_", e.g. CADSIGHT_KEY_MY_VLLM. */
export function providerKeyEnvName(providerId: string): string {
  return `CADSIGHT_KEY_${providerId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** True when `id` names a row of the preset table. */
export function isPresetId(id: string): id is ProviderPreset['id'] {
  return Object.hasOwn(providerPresets, id);
}

/**
 * Environment variables that may hold a provider's key, most specific first: the per-provider
 * CADSIGHT_KEY_<ID>, then the preset's conventional variable (OPENAI_API_KEY, DASHSCOPE_API_KEY...).
 */
export function keyEnvNames(providerId: string, preset: ProviderPreset['id'] | undefined): string[] {
  const conventional = preset === undefined ? null : providerPresets[preset].keyEnv;
  return conventional === null ? [providerKeyEnvName(providerId)] : [providerKeyEnvName(providerId), conventional];
}

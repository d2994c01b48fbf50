// The preset table is pure data shared with the renderer (Settings form), so it lives in shared/.
export { providerPresets, type ProviderPreset } from '../../../shared/llmPresets';

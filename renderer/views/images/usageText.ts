import type { MessageKey } from '../../i18n/messages';

interface Usage {
  promptTokens: number;
  completionTokens: number;
  contextBytes: number;
  latencyMs: number;
}

/** Latency, tokens (when the provider reported them) and bytes sent, as one catalog line. */
export function usageLine(t: (key: MessageKey, params?: Record<string, string | number>) => string, usage: Usage): string {
  const common = { ms: Math.round(usage.latencyMs), kb: Math.max(1, Math.round(usage.contextBytes / 1024)) };
  // Zero on both sides means "not reported" (the engine stores 0 for a missing count).
  if (usage.promptTokens === 0 && usage.completionTokens === 0) return t('vision.usage.noTokens', common);
  return t('vision.usage', { ...common, prompt: usage.promptTokens, completion: usage.completionTokens });
}

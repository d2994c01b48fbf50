import { anthropicImageTokens, estimateVisionTokens } from '../../../shared/imageBilling';

export { anthropicImageTokens };

/** Which billing rule applies: OpenAI (Responses, Chat Completions) or Anthropic Messages. */
export type TokenRule = 'openai' | 'anthropic';

const PNG_BASE64_PREFIX = 'iVBORw0KGgo';

/** Width and height from a base64 PNG's IHDR chunk (bytes 16..23), or null when it is no PNG. */
function pngSize(base64: string): { width: number; height: number } | null {
  if (!base64.startsWith(PNG_BASE64_PREFIX)) return null;
  const head = Buffer.from(base64.slice(0, 44), 'base64');
  if (head.length < 24) return null;
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/**
 * Prompt tokens of a request body the way a provider bills it: text at ~4 bytes per token, each
 * embedded PNG (data URL or base64 source) by its pixels with the provider's rule instead of by
 * its base64 length. Images of other formats stay at bytes / 4 (only PNG sizes are read).
 */
export function promptTokensOf(body: unknown, rawBytes: number, rule: TokenRule): number {
  let imageBytes = 0;
  let imageTokens = 0;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const data = value.startsWith('data:image/png;base64,') ? value.slice('data:image/png;base64,'.length) : value;
      const size = data.length > 64 ? pngSize(data) : null;
      if (!size) return;
      imageBytes += value.length;
      imageTokens += rule === 'anthropic' ? anthropicImageTokens(size.width, size.height) : estimateVisionTokens(size.width, size.height);
      return;
    }
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(body);
  return Math.ceil(Math.max(0, rawBytes - imageBytes) / 4) + imageTokens;
}

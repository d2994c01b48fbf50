import { createHash } from 'node:crypto';
import { promptTokensOf, type TokenRule } from './promptTokens';

/** Which endpoint a body was sent to (its prefix order differs). */
export type CacheEndpoint = 'responses' | 'chat' | 'anthropic';

/** What a prefix cache served and stored for one request. */
export interface CacheOutcome {
  cachedPromptTokens: number;
  cacheWritePromptTokens: number;
}

const ANTHROPIC_LOOKBACK = 20;

/** One piece of a prompt in the order the provider reads it, and whether a breakpoint ends it. */
interface PrefixUnit {
  json: string;
  breakpoint: boolean;
}

function withoutCacheControl(value: Record<string, unknown>): { unit: Record<string, unknown>; breakpoint: boolean } {
  const { cache_control: mark, ...unit } = value;
  return { unit, breakpoint: mark !== undefined };
}

/**
 * A request body as the sequence its provider caches by prefix: Chat Completions system
 * messages, tools, then the other messages; Responses instructions, tools, then input items; Anthropic tools, system
 * blocks, then each message's blocks (cache_control marks where a breakpoint ends a unit).
 */
function prefixUnits(endpoint: CacheEndpoint, body: Record<string, unknown>): PrefixUnit[] {
  const list = (key: string): unknown[] => (Array.isArray(body[key]) ? (body[key] as unknown[]) : []);
  const plain = (value: unknown): PrefixUnit => ({ json: JSON.stringify(value), breakpoint: false });
  if (endpoint === 'chat') {
    // Chat templates (OpenAI's harmony, Qwen, DeepSeek, GLM) render the system text first and the
    // tool definitions right after it, then the conversation.
    const messages = list('messages');
    const leading = messages.findIndex((m) => (m as { role?: unknown }).role !== 'system');
    const system = leading < 0 ? messages : messages.slice(0, leading);
    return [...system.map(plain), plain(list('tools')), ...messages.slice(system.length).map(plain)];
  }
  if (endpoint === 'responses') return [plain(body['instructions'] ?? null), plain(list('tools')), ...list('input').map(plain)];
  const marked = (value: unknown, role?: string): PrefixUnit => {
    const { unit, breakpoint } = withoutCacheControl(value as Record<string, unknown>);
    return { json: JSON.stringify(role ? { role, block: unit } : unit), breakpoint };
  };
  const system = typeof body['system'] === 'string' ? [{ type: 'text', text: body['system'] }] : list('system');
  const blocks = list('messages').flatMap((m) => {
    const message = m as { role: string; content: unknown };
    return Array.isArray(message.content) ? message.content.map((b) => marked(b, message.role)) : [plain(message)];
  });
  return [...list('tools').map((t) => marked(t)), ...system.map((s) => marked(s)), ...blocks];
}

/**
 * A simulated provider prompt cache. Automatic caches (OpenAI, DeepSeek, Kimi, GLM, Qwen) serve
 * the longest prefix of units already sent in an earlier request; Anthropic serves the longest
 * prefix an earlier request wrote at one of its breakpoints, found within 20 blocks before a
 * breakpoint of this request, and writes every breakpoint's
 * prefix it did not read. Prefixes under `minTokens` are never cached (1024 at OpenAI and for
 * most Claude models). Token counts follow promptTokensOf, so images count by their pixels.
 */
export function createPromptCache(minTokens = 1024): { serve(endpoint: CacheEndpoint, body: unknown, promptTokens: number): CacheOutcome } {
  const seen = new Set<string>();
  return {
    serve(endpoint, body, promptTokens) {
      if (!body || typeof body !== 'object') return { cachedPromptTokens: 0, cacheWritePromptTokens: 0 };
      const units = prefixUnits(endpoint, body as Record<string, unknown>);
      const rule: TokenRule = endpoint === 'anthropic' ? 'anthropic' : 'openai';
      const tokensUpTo = (count: number): number => {
        const text = `[${units.slice(0, count).map((u) => u.json).join(',')}]`;
        return promptTokensOf(JSON.parse(text), Buffer.byteLength(text), rule);
      };
      const hashes: string[] = [];
      let rolling: string = endpoint;
      for (const unit of units) {
        rolling = createHash('sha256').update(rolling).update(unit.json).digest('hex');
        hashes.push(rolling);
      }
      const explicit = endpoint === 'anthropic';
      let hit = 0;
      hashes.forEach((h, i) => {
        // Anthropic looks back at most 20 blocks from each breakpoint for a prefix it wrote.
        const reachable = !explicit || units.some((u, j) => u.breakpoint && j >= i && j - i < ANTHROPIC_LOOKBACK);
        if (seen.has(h) && reachable) hit = i + 1;
      });
      const total = Math.max(1, tokensUpTo(units.length));
      const scale = (tokens: number): number => Math.min(promptTokens, Math.round((tokens / total) * promptTokens));
      const cached = hit > 0 && tokensUpTo(hit) >= minTokens ? scale(tokensUpTo(hit)) : 0;
      let written = 0;
      if (explicit) {
        const lastBreakpoint = units.map((u) => u.breakpoint).lastIndexOf(true) + 1;
        if (lastBreakpoint > hit && tokensUpTo(lastBreakpoint) >= minTokens) written = scale(tokensUpTo(lastBreakpoint)) - cached;
        hashes.forEach((h, i) => units[i]!.breakpoint && seen.add(h));
      } else {
        hashes.forEach((h) => seen.add(h));
      }
      return { cachedPromptTokens: cached, cacheWritePromptTokens: Math.max(0, written) };
    },
  };
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransportFailure } from '../httpTransport';
import type { SseEvent } from '../sse';
import { accumulateChatStream } from './chatCompletionsStream';

async function* eventsOf(chunks: unknown[]): AsyncGenerator<SseEvent> {
  for (const chunk of chunks) yield { event: 'message', data: typeof chunk === 'string' ? chunk : JSON.stringify(chunk) };
}

const delta = (d: Record<string, unknown>, finish: string | null = null) => ({ choices: [{ index: 0, delta: d, finish_reason: finish }] });

/** Cuts `text` at the given positions. */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const p of points) {
    out.push(text.slice(start, p));
    start = p;
  }
  out.push(text.slice(start));
  return out;
}

describe('Chat Completions stream accumulation', () => {
  it('reassembles text and each tool call from arbitrarily split deltas', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.array(fc.string({ minLength: 0, maxLength: 40 }), { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 8 }), async (text, args, cuts) => {
        const chunks: unknown[] = [delta({ role: 'assistant', content: '' })];
        for (const piece of split(text, cuts)) chunks.push(delta({ content: piece }));
        args.forEach((a, index) => {
          chunks.push(delta({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: `tool_${index}`, arguments: '' } }] }));
          for (const piece of split(a, cuts)) chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
        });
        chunks.push(delta({}, 'tool_calls'), { choices: [], usage: { prompt_tokens: 5, completion_tokens: 7 } }, '[DONE]');
        const reply = await accumulateChatStream(eventsOf(chunks));
        expect(reply.text).toBe(text);
        expect(reply.toolCalls).toEqual(args.map((a, i) => ({ id: `call_${i}`, name: `tool_${i}`, rawArguments: a })));
        expect(reply).toMatchObject({ stopReason: 'tool_call', promptTokens: 5, completionTokens: 7 });
      }),
    );
  });

  it('treats a stream that ends before [DONE] or a finish reason as a transport failure', async () => {
    await expect(accumulateChatStream(eventsOf([delta({ content: 'half' })]))).rejects.toBeInstanceOf(TransportFailure);
  });

  it('rejects a chunk that is not JSON as a malformed reply', async () => {
    await expect(accumulateChatStream(eventsOf(['{oops']))).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });
});

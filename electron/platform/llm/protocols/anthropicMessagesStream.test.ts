import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransportFailure } from '../httpTransport';
import type { SseEvent } from '../sse';
import { accumulateAnthropicStream } from './anthropicMessagesStream';

async function* eventsOf(payloads: Array<Record<string, unknown>>): AsyncGenerator<SseEvent> {
  for (const p of payloads) yield { event: String(p['type']), data: JSON.stringify(p) };
}

function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((p, i, all) => text.slice(i === 0 ? 0 : all[i - 1], p));
}

const start = { type: 'message_start', message: { usage: { input_tokens: 3, output_tokens: 1 } } };
const stop = (reason: string) => [{ type: 'message_delta', delta: { stop_reason: reason }, usage: { output_tokens: 8 } }, { type: 'message_stop' }];

describe('Anthropic stream accumulation', () => {
  it('joins text and partial_json deltas however they are split, ignoring pings and unknown events', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.array(fc.nat(), { maxLength: 8 }), async (text, json, cuts) => {
        const events: Array<Record<string, unknown>> = [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }];
        for (const piece of split(text, cuts)) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
        events.push({ type: 'ping' }, { type: 'content_block_stop', index: 0 }, { type: 'future_event', x: 1 });
        events.push({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'part', input: {} } });
        for (const piece of split(json, cuts)) events.push({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: piece } });
        events.push({ type: 'content_block_stop', index: 1 }, ...stop('tool_use'));
        const reply = await accumulateAnthropicStream(eventsOf(events));
        expect(reply).toEqual({ text, toolCalls: [{ id: 'toolu_1', name: 'part', rawArguments: json }], stopReason: 'tool_call', promptTokens: 3, completionTokens: 8 });
      }),
    );
  });

  it('uses the start block input when a tool call streams no input deltas', async () => {
    const reply = await accumulateAnthropicStream(
      eventsOf([start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'noargs', input: {} } }, { type: 'content_block_stop', index: 0 }, ...stop('tool_use')]),
    );
    expect(reply.toolCalls).toEqual([{ id: 't', name: 'noargs', rawArguments: '{}' }]);
  });

  it('treats an overloaded error event and a stream without message_stop as retryable transport failures', async () => {
    await expect(accumulateAnthropicStream(eventsOf([start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]))).rejects.toBeInstanceOf(TransportFailure);
    await expect(accumulateAnthropicStream(eventsOf([start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'cut' } }]))).rejects.toBeInstanceOf(TransportFailure);
  });

  it('rejects an invalid_request error event as a malformed reply', async () => {
    await expect(accumulateAnthropicStream(eventsOf([start, { type: 'error', error: { type: 'invalid_request_error' } }]))).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });
});

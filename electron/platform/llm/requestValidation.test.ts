import { describe, expect, it } from 'vitest';
import { assertValidRequest } from './requestValidation';
import type { LlmRequest } from './types';

const tool = { name: 'measure', description: 'd', parameters: { type: 'object' } };
const text = { type: 'text' as const, text: 'hi' };

describe('request validation before sending', () => {
  it('accepts a normal tool loop', () => {
    expect(() =>
      assertValidRequest({
        messages: [
          { role: 'user', content: [text, { type: 'image', mimeType: 'image/png', data: new Uint8Array(1) }] },
          { role: 'assistant', content: [text, { type: 'tool_call', id: 'c', name: 'measure', arguments: '{}' }] },
          { role: 'user', content: [{ type: 'tool_result', toolCallId: 'c', content: '1' }] },
        ],
        tools: [tool],
        toolChoice: { name: 'measure' },
      }),
    ).not.toThrow();
  });

  it.each<[string, LlmRequest]>([
    ['no messages', { messages: [] }],
    ['an empty message', { messages: [{ role: 'user', content: [] }] }],
    ['an image in an assistant turn', { messages: [{ role: 'assistant', content: [{ type: 'image', mimeType: 'image/png', data: new Uint8Array(1) }] }] }],
    ['a tool call in a user turn', { messages: [{ role: 'user', content: [{ type: 'tool_call', id: 'c', name: 'x', arguments: '{}' }] }] }],
    ['a forced tool that is not offered', { messages: [{ role: 'user', content: [text] }], tools: [tool], toolChoice: { name: 'other' } }],
    ['a tool offered twice', { messages: [{ role: 'user', content: [text] }], tools: [tool, tool] }],
  ])('refuses %s with LLM_BAD_REQUEST', (_name, request) => {
    expect(() => assertValidRequest(request)).toThrow(expect.objectContaining({ code: 'LLM_BAD_REQUEST', retryable: false }));
  });
});

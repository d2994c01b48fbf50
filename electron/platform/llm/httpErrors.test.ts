import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorForStatus, providerErrorDetail, readErrorBody } from './httpErrors';
import type { LlmProtocol } from './types';

const KEY = 'sk-canary-0123456789abcdef';
const protocols: LlmProtocol[] = ['openai-responses', 'chat-completions', 'anthropic-messages'];
const chat = { id: 'ollama', protocol: 'chat-completions' as const };

describe('provider error bodies', () => {
  it('never reflects a body that is not the protocol error shape, whatever it holds', () => {
    const foreign = fc.oneof(
      // Plain strings never start with '{' here: those are the JSON cases below.
      fc.string({ minLength: 1 }).filter((s) => !s.startsWith('{')),
      fc.string().map((s) => `<html><body>admin panel ${s}</body></html>`),
      fc.record({ message: fc.string(), data: fc.string() }).map((v) => JSON.stringify(v)),
      fc.record({ status: fc.string(), detail: fc.string() }).map((v) => JSON.stringify(v)),
      fc.array(fc.string()).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(foreign, fc.constantFrom(...protocols), fc.constantFrom(400, 403, 404, 413, 422), (body, protocol, status) => {
        const marked = `${body}CANARY-BODY`;
        const text = body.startsWith('{') ? JSON.stringify({ ...JSON.parse(body), secret: 'CANARY-BODY' }) : marked;
        const error = errorForStatus(status, text, { id: 'p', protocol }, undefined);
        expect(JSON.stringify([error.message, error.data])).not.toContain('CANARY-BODY');
        expect(error.data).not.toHaveProperty('providerMessage');
      }),
    );
  });

  it('takes message and code from each protocol shape only, sanitised and bounded', () => {
    expect(providerErrorDetail(JSON.stringify({ error: { message: 'model not found', type: 'invalid_request_error', code: 'model_not_found' } }), 'openai-responses', undefined)).toEqual({ code: 'model_not_found', message: 'model not found' });
    expect(providerErrorDetail(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'model: x' } }), 'anthropic-messages', undefined)).toEqual({ code: 'not_found_error', message: 'model: x' });
    expect(providerErrorDetail(JSON.stringify({ error: 'model "llava" not found, try pulling it first' }), 'chat-completions', undefined)).toEqual({ message: 'model "llava" not found, try pulling it first' });
    expect(providerErrorDetail(JSON.stringify({ object: 'error', message: 'max_tokens too large', type: 'BadRequestError', code: 400 }), 'chat-completions', undefined)).toEqual({ code: 'BadRequestError', message: 'max_tokens too large' });
    // A string `error` is Ollama's shape, not Anthropic's or the Responses API's.
    expect(providerErrorDetail(JSON.stringify({ error: 'x' }), 'anthropic-messages', undefined)).toEqual({});
    // A code that is not a plain token is dropped rather than quoted.
    expect(providerErrorDetail(JSON.stringify({ error: { message: 'm', code: '<script>alert(1)</script>' } }), 'chat-completions', undefined)).toEqual({ message: 'm' });
    fc.assert(
      fc.property(fc.string(), (noise) => {
        const message = `${'\u0000\u001b[31m'}${noise}${'x'.repeat(400)} ${KEY} Bearer ${KEY}`;
        const detail = providerErrorDetail(JSON.stringify({ error: { message } }), 'chat-completions', KEY);
        expect(detail.message!.length).toBeLessThanOrEqual(301);
        expect(detail.message).not.toMatch(/[\u0000-\u001f]/);
        expect(detail.message).not.toContain(KEY);
      }),
    );
  });

  it('says the status and that the reply had no protocol message instead of quoting a foreign page', () => {
    const error = errorForStatus(404, '<html>internal wiki</html>', chat, undefined);
    expect(error).toMatchObject({ code: 'LLM_NOT_FOUND', data: { providerId: 'ollama', status: 404 } });
    expect(error.message).toBe('Provider "ollama" does not know this model or endpoint (HTTP 404).');
  });

  it('reads at most the cap of an error body and stops reading the rest', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x61));
      },
    });
    const text = await readErrorBody(new Response(body, { status: 400 }), 64 * 1024);
    expect(text.length).toBe(64 * 1024);
    expect(pulled).toBeLessThan(10);
  });
});

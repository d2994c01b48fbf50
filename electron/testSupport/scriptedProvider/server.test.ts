import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedProvider, type ScriptedProvider } from '.';

let server: ScriptedProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server!.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('scripted provider server', () => {
  it('listens on 127.0.0.1 with an ephemeral port and lists its model', async () => {
    server = await startScriptedProvider({ script: [], model: 'vision-x' });
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.apiBaseUrl).toBe(`${server.baseUrl}/v1`);
    const models = await (await fetch(`${server.apiBaseUrl}/models`)).json();
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'vision-x' }] });
  });

  it('comes back on the same port after it was closed, so a client configured with that URL reaches it again', async () => {
    const first = await startScriptedProvider({ script: [{ text: 'before' }] });
    const { port, apiBaseUrl } = first;
    await first.close();
    await expect(fetch(`${apiBaseUrl}/models`)).rejects.toThrow();
    server = await startScriptedProvider({ script: [{ text: 'after' }], port });
    expect(server.apiBaseUrl).toBe(apiBaseUrl);
    expect((await (await post('/v1/chat/completions', { messages: [] })).json()).choices[0].message.content).toBe('after');
  });

  it('captures requests without credential values', async () => {
    server = await startScriptedProvider({ script: [{ text: 'a' }, { text: 'b' }], apiKey: 'secret-1' });
    await post('/v1/chat/completions', { model: 'm', messages: [] }, { authorization: 'Bearer secret-1', 'x-trace': 't1' });
    await post('/v1/messages', { model: 'm', messages: [] }, { 'x-api-key': 'secret-1' });
    expect(server.requests.map((r) => [r.path, r.auth, r.authMatched, r.headers['x-trace']])).toEqual([
      ['/v1/chat/completions', 'bearer', true, 't1'],
      ['/v1/messages', 'x-api-key', true, undefined],
    ]);
    expect(JSON.stringify(server.requests)).not.toContain('secret-1');
  });

  it('answers a wrong key with 401 in the protocol error shape without consuming a step', async () => {
    server = await startScriptedProvider({ script: [{ text: 'kept' }], apiKey: 'right' });
    const refused = await post('/v1/messages', {}, { 'x-api-key': 'wrong' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const accepted = await post('/v1/messages', {}, { 'x-api-key': 'right' });
    expect((await accepted.json()).content).toEqual([{ type: 'text', text: 'kept' }]);
  });

  it('chooses replies with a script function that sees the captured request', async () => {
    server = await startScriptedProvider({ script: (request, index) => ({ text: `${index}:${(request.body as { model: string }).model}` }) });
    const first = await (await post('/v1/chat/completions', { model: 'm1', messages: [] })).json();
    const second = await (await post('/v1/chat/completions', { model: 'm2', messages: [] })).json();
    expect([first.choices[0].message.content, second.choices[0].message.content]).toEqual(['0:m1', '1:m2']);
  });

  it('fails loudly and without retry when the step list runs out or the route is unknown', async () => {
    server = await startScriptedProvider({ script: [] });
    const exhausted = await post('/v1/responses', {});
    expect(exhausted.status).toBe(400);
    expect((await exhausted.json()).error.message).toContain('script exhausted');
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });

  it('sends scripted errors with their status, body and Retry-After header', async () => {
    server = await startScriptedProvider({ script: [{ error: { status: 429, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT', body: { error: { message: 'slow down' } } } }] });
    const response = await post('/v1/responses', {});
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(await response.json()).toEqual({ error: { message: 'slow down' } });
  });

  it('streams chat completions as SSE ending with [DONE]', async () => {
    server = await startScriptedProvider({ script: [{ toolCall: { name: 't', arguments: '{"a":1}' }, chunkSize: 2 }] });
    const response = await post('/v1/chat/completions', { stream: true, messages: [] });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const argumentDeltas = events.slice(0, -1).flatMap((e) => JSON.parse(e).choices[0]?.delta?.tool_calls ?? []).map((d: { function: { arguments: string } }) => d.function.arguments);
    expect(argumentDeltas).toEqual(['', '{"', 'a"', ':1', '}']);
  });
});

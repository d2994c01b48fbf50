import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatDialects, dialectViolation } from './dialects';
import { createPromptCache } from './promptCache';
import { promptTokensOf } from './promptTokens';
import { openAiStrictRefusal } from './strictSchemas';
import { anthropicBody, anthropicStreamEvents, chatBody, chatStreamEvents, errorBody, neutralReply, responsesBody } from './replies';
import type { CapturedRequest, ScriptedProvider, ScriptedProviderOptions, ScriptStep } from './types';

type Endpoint = 'responses' | 'chat' | 'anthropic';

const ENDPOINTS: Record<string, Endpoint> = {
  '/v1/responses': 'responses',
  '/v1/chat/completions': 'chat',
  '/v1/messages': 'anthropic',
};

const DEFAULT_CHUNK_SIZE = 5;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

function capture(req: IncomingMessage, raw: Buffer, apiKey: string | undefined): CapturedRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'authorization' || name === 'x-api-key' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
  const xKey = req.headers['x-api-key'];
  const sent = bearer ?? (typeof xKey === 'string' ? xKey : undefined);
  let body: unknown;
  try {
    body = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  return {
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0] ?? '/',
    headers,
    auth: bearer !== undefined ? 'bearer' : sent !== undefined ? 'x-api-key' : null,
    authMatched: apiKey !== undefined && sent === apiKey,
    body,
    bodyBytes: raw.length,
  };
}

function sendJson(res: ServerResponse, status: number, body: string, extraHeaders: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extraHeaders });
  res.end(body);
}

/**
 * Starts the scripted LLM provider: real HTTP on 127.0.0.1 (ephemeral port unless given), speaking
 * OpenAI Responses (POST /v1/responses), Chat Completions (POST /v1/chat/completions) and
 * Anthropic Messages (POST /v1/messages) — the last two also as SSE in small chunks when the
 * body says stream:true — plus
 * GET /v1/models. Replies come from `script`; every request is captured (without credential
 * values). An exhausted step list answers 400 so a test that under-scripts fails loudly
 * instead of retrying. Test support only.
 */
export async function startScriptedProvider(options: ScriptedProviderOptions): Promise<ScriptedProvider> {
  const requests: CapturedRequest[] = [];
  const model = options.model ?? 'scripted-model';
  const dialect = options.dialect ? chatDialects[options.dialect] : undefined;
  const cache = options.promptCache ? createPromptCache(typeof options.promptCache === 'object' ? options.promptCache.minTokens : undefined) : undefined;
  let stepIndex = 0;

  async function nextStep(request: CapturedRequest): Promise<ScriptStep | undefined> {
    const index = stepIndex++;
    if (typeof options.script === 'function') return options.script(request, index);
    return options.script[index];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const request = capture(req, raw, options.apiKey);
    requests.push(request);
    const endpoint = ENDPOINTS[request.path];
    const flavour = endpoint === 'anthropic' ? 'anthropic' : 'openai';

    if (request.method === 'GET' && request.path === '/v1/models') {
      sendJson(res, 200, JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', owned_by: 'scripted' }] }));
      return;
    }
    if (request.method !== 'POST' || !endpoint) {
      sendJson(res, 404, errorBody(flavour, 404, `No route ${request.method} ${request.path}`));
      return;
    }
    if (options.apiKey !== undefined && !request.authMatched) {
      sendJson(res, 401, errorBody(flavour, 401, 'Invalid API key.'));
      return;
    }
    const refusal = options.enforceOpenAiStrict && endpoint !== 'anthropic' ? openAiStrictRefusal(request.body) : null;
    if (refusal) {
      sendJson(res, 400, refusal);
      return;
    }
    // A provider refuses a request that breaks its documented rules before any model runs.
    const violation = endpoint === 'chat' && dialect ? dialectViolation(dialect, request.body) : null;
    if (violation !== null) {
      sendJson(res, 400, JSON.stringify({ error: { message: violation, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }));
      return;
    }
    const step = await nextStep(request);
    if (!step) {
      sendJson(res, 400, errorBody(flavour, 400, `scripted provider: script exhausted after ${stepIndex - 1} step(s)`));
      return;
    }
    if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if ('dropConnection' in step) {
      req.socket.destroy();
      return;
    }
    if ('error' in step) {
      const { status, body, retryAfter } = step.error;
      const text = body === undefined ? errorBody(flavour, status, `scripted error ${status}`) : typeof body === 'string' ? body : JSON.stringify(body);
      sendJson(res, status, text, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
      return;
    }
    const wantsStream = typeof request.body === 'object' && request.body !== null && (request.body as Record<string, unknown>)['stream'] === true;
    // Billed like a provider: text by length, images by pixels (promptTokens.ts).
    const promptTokens = promptTokensOf(request.body, raw.length, endpoint === 'anthropic' ? 'anthropic' : 'openai');
    const measured = cache?.serve(endpoint, request.body, step.usage?.promptTokens ?? promptTokens);
    const reply = neutralReply(step, promptTokens, requests.length, measured);
    if (wantsStream && endpoint === 'responses') {
      sendJson(res, 400, errorBody(flavour, 400, 'scripted provider streams Chat Completions and Anthropic Messages only'));
      return;
    }
    if (wantsStream) {
      const chunkSize = step.chunkSize ?? DEFAULT_CHUNK_SIZE;
      const streamOptions = (request.body as Record<string, unknown>)['stream_options'] as Record<string, unknown> | undefined;
      const events =
        endpoint === 'chat'
          ? chatStreamEvents(reply, model, requests.length, chunkSize, streamOptions?.['include_usage'] === true, dialect)
          : anthropicStreamEvents(reply, model, requests.length, chunkSize);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const [index, event] of events.entries()) {
        if (index === step.cutAfterEvents) {
          req.socket.destroy();
          return;
        }
        res.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`);
        // Yield between events so they leave as separate TCP writes, as a real stream does.
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
      return;
    }
    const body =
      endpoint === 'responses' ? responsesBody(reply, model, requests.length) : endpoint === 'chat' ? chatBody(reply, model, requests.length, dialect) : anthropicBody(reply, model, requests.length);
    sendJson(res, 200, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A script function that throws is a test bug: answer 400 (not retried) with its message.
      if (!res.headersSent) sendJson(res, 400, errorBody('openai', 400, `scripted provider: ${error instanceof Error ? error.message : String(error)}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    port,
    apiBaseUrl: `${baseUrl}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

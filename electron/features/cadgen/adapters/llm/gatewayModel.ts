import { inlineLocalRefs } from '../../domain/contracts/schemaParts';
import { compileStrictSchema, restoreOptionals, strictUsesNullForOptional } from '../../../../platform/llm/strictDialect/index';
import type { LlmContentPart, LlmGateway, LlmProtocol, LlmToolDefinition } from '../../../../platform/llm/types';
import type { ModelEndpoint, ModelPort, ModelReply, OutputMode } from '../../application/protocol/ports';

const MAX_OUTPUT_TOKENS = 4096;

/**
 * What strict mode sends for a tool: its schema compiled to the protocol's strict dialect with
 * `strict: true` — except a tool offered compact (`canonicalParameters` set: the draft batch and
 * patch, whose claim `expected` is read on demand through get_claim_schema). A strict schema
 * must be closed, so it could carry the claim only as the full ≈ 16 KB oneOf of every kind on
 * every drafting turn; that tool goes as offered and not strict (both OpenAI and Anthropic take
 * `strict` per tool), and its arguments meet the canonical validator like every other call's.
 * Local `$defs` stay (both dialects resolve them) so a shared part is sent once, not per use.
 */
export function strictToolDefinition(protocol: LlmProtocol, tool: LlmToolDefinition & { canonicalParameters?: Record<string, unknown> }): LlmToolDefinition {
  const { canonicalParameters, ...offered } = tool;
  if (canonicalParameters) return offered;
  return { ...offered, parameters: compileStrictSchema(protocol, offered.parameters), strict: true };
}

/** The endpoint a gateway provider config stands for: strict and tool modes everywhere; JSON mode where the protocol has one. */
export function endpointOf(provider: { protocol: LlmProtocol; baseUrl: string; model: string }): ModelEndpoint {
  const modes: OutputMode[] = provider.protocol === 'anthropic-messages' ? ['strict', 'tool'] : ['strict', 'tool', 'json'];
  return { protocol: provider.protocol, baseUrl: provider.baseUrl.replace(/\/+$/, ''), model: provider.model, modes };
}

const JSON_MODE_RULES =
  'Answer with exactly one JSON object {"tool": <tool name>, "arguments": <arguments object>} choosing one of these tools; the arguments must match its JSON Schema:';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * ModelPort over the platform LLM gateway. With one exposed tool the call is forced; with
 * several the model must choose and exactly one call is accepted (several calls or text only
 * come back as `no_call`, a format error for the coordinator). Output modes: `tool` sends the
 * canonical schemas; `strict` sends them compiled to the protocol's strict dialect with
 * `strict: true` and maps OpenAI's null-for-optional back before the arguments reach canonical
 * validation; `json` asks for the provider's JSON mode and reads the {tool, arguments} envelope
 * of the reply (the provider guarantees one JSON object; prose is never searched for JSON).
 * Gateway errors (LLM_*) propagate.
 */
export function createGatewayModel(id: string, gateway: LlmGateway, endpoint?: ModelEndpoint): ModelPort {
  let chosen: OutputMode = 'tool';
  return {
    id,
    ...(endpoint ? { endpoint } : {}),
    useMode(mode) {
      chosen = mode;
    },
    async turn(request) {
      const mode = request.mode ?? chosen;
      const protocol = (endpoint?.protocol ?? 'chat-completions') as LlmProtocol;
      const content: LlmContentPart[] = [{ type: 'text', text: request.user }, ...(request.images ?? []).map((image) => ({ type: 'image' as const, ...image }))];
      const byName = new Map(request.tools.map((t) => [t.name, t]));
      const tools: LlmToolDefinition[] = request.tools.map((t) => {
        if (mode === 'strict') return strictToolDefinition(protocol, t);
        const { canonicalParameters: _validatedOnly, ...offered } = t;
        return offered;
      });
      const response = await gateway.complete({
        system: mode === 'json' ? `${request.system}\n\n${JSON_MODE_RULES}\n${JSON.stringify(tools)}` : request.system,
        messages: [{ role: 'user', content }],
        ...(mode === 'json'
          ? { responseFormat: 'json_object' as const }
          : { tools, toolChoice: tools.length === 1 && tools[0] ? { name: tools[0].name } : ('auto' as const) }),
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        temperature: 0,
        purpose: request.purpose,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      if (mode === 'json') {
        const envelope = parseJson(response.text) as { tool?: unknown; arguments?: unknown } | undefined;
        if (typeof envelope !== 'object' || envelope === null || typeof envelope.tool !== 'string' || !byName.has(envelope.tool) || typeof envelope.arguments !== 'object' || envelope.arguments === null) {
          return { kind: 'no_call', usage: response.usage, text: response.text };
        }
        return { kind: 'call', name: envelope.tool, rawArguments: JSON.stringify(envelope.arguments), usage: response.usage };
      }
      const [call, ...more] = response.toolCalls;
      if (!call || more.length > 0) return { kind: 'no_call', usage: response.usage, text: call ? `${response.toolCalls.length} tool calls` : response.text };
      const reply: ModelReply = { kind: 'call', name: call.name, rawArguments: call.rawArguments, usage: response.usage };
      const sent = tools.find((t) => t.name === call.name);
      if (!sent?.strict || !strictUsesNullForOptional(protocol) || call.parsed === undefined) return reply;
      const restored = JSON.stringify(restoreOptionals(inlineLocalRefs(byName.get(call.name)!.parameters), call.parsed));
      // Unchanged arguments keep their exact raw bytes (hash and format checks see what was sent).
      return restored === JSON.stringify(call.parsed) ? reply : { ...reply, rawArguments: restored };
    },
  };
}

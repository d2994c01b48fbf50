/** Wire protocols (mirrors LlmProtocol of the gateway port). */
export type PresetProtocol = 'openai-responses' | 'chat-completions' | 'anthropic-messages';

/** Provider presets: the one table of known gateways (settings UI, env config, MCP servers). */
export interface ProviderPreset {
  id: 'openai' | 'anthropic' | 'qwen' | 'kimi' | 'deepseek' | 'zhipu' | 'ollama' | 'custom';
  label: string;
  protocol: PresetProtocol;
  /** Default base URL (custom has none: the user must give one). */
  baseUrl: string | null;
  /** Environment variable holding the key in Node contexts; null = no key needed. */
  keyEnv: string | null;
  /** A reasonable default model for vision work; the user can change it. */
  defaultModel: string | null;
  /** Where this provider's API departs from its protocol's reference (read from its documentation). */
  quirks: ProviderQuirks;
}

/**
 * What a provider's documented API does differently from OpenAI's / Anthropic's reference.
 * The gateway reads these; they never change what a caller asks for, only how it is sent.
 */
export interface ProviderQuirks {
  /**
   * How a forced single tool call is expressed. 'named': tool_choice names the tool (OpenAI,
   * Anthropic, DeepSeek, Qwen). 'required': only auto/none/required are accepted, so the named
   * tool is sent alone with tool_choice "required". 'auto': only auto (and none) are accepted
   * — Zhipu GLM always, Kimi with thinking on (its default), Ollama ignores tool_choice — so
   * the named tool is sent alone with "auto"; a reply without the call is LLM_NO_TOOL_CALL.
   */
  forcedToolChoice: 'named' | 'required' | 'auto';
  /**
   * Thinking models that reject a history whose assistant tool-call messages lack the
   * `reasoning_content` they produced (Kimi K2: "thinking is enabled but reasoning_content is
   * missing in assistant tool call message"; DeepSeek thinking mode: 400 "Missing
   * reasoning_content field in the assistant message"; GLM interleaved thinking). The gateway
   * sends each tool-call turn's reasoning back ("" when there was none); it is never the answer.
   * False: the field is never sent (OpenAI rejects unknown message fields; Ollama's history
   * does not take it).
   */
  echoReasoningOnToolCalls: boolean;
}

const REFERENCE: ProviderQuirks = { forcedToolChoice: 'named', echoReasoningOnToolCalls: false };

export const providerPresets: Readonly<Record<ProviderPreset['id'], ProviderPreset>> = {
  openai: { id: 'openai', label: 'OpenAI', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', defaultModel: 'gpt-4.1', quirks: REFERENCE },
  anthropic: { id: 'anthropic', label: 'Anthropic', protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com/v1', keyEnv: 'ANTHROPIC_API_KEY', defaultModel: 'claude-sonnet-4-5', quirks: REFERENCE },
  qwen: { id: 'qwen', label: 'Qwen (DashScope)', protocol: 'chat-completions', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY', defaultModel: 'qwen-vl-max', quirks: { forcedToolChoice: 'named', echoReasoningOnToolCalls: false } },
  kimi: { id: 'kimi', label: 'Kimi (Moonshot)', protocol: 'chat-completions', baseUrl: 'https://api.moonshot.cn/v1', keyEnv: 'MOONSHOT_API_KEY', defaultModel: 'moonshot-v1-8k-vision-preview', quirks: { forcedToolChoice: 'auto', echoReasoningOnToolCalls: true } },
  deepseek: { id: 'deepseek', label: 'DeepSeek', protocol: 'chat-completions', baseUrl: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', defaultModel: 'deepseek-chat', quirks: { forcedToolChoice: 'named', echoReasoningOnToolCalls: true } },
  zhipu: { id: 'zhipu', label: 'Zhipu GLM', protocol: 'chat-completions', baseUrl: 'https://open.bigmodel.cn/api/paas/v4', keyEnv: 'ZHIPUAI_API_KEY', defaultModel: 'glm-4v-plus', quirks: { forcedToolChoice: 'auto', echoReasoningOnToolCalls: true } },
  ollama: { id: 'ollama', label: 'Ollama (local)', protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:11434/v1', keyEnv: null, defaultModel: 'llava', quirks: { forcedToolChoice: 'auto', echoReasoningOnToolCalls: false } },
  custom: { id: 'custom', label: 'Custom (OpenAI-compatible)', protocol: 'chat-completions', baseUrl: null, keyEnv: null, defaultModel: null, quirks: REFERENCE },
};

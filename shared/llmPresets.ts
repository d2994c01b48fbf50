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
}

export const providerPresets: Readonly<Record<ProviderPreset['id'], ProviderPreset>> = {
  openai: { id: 'openai', label: 'OpenAI', protocol: 'openai-responses', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', defaultModel: 'gpt-4.1' },
  anthropic: { id: 'anthropic', label: 'Anthropic', protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com/v1', keyEnv: 'ANTHROPIC_API_KEY', defaultModel: 'claude-sonnet-4-5' },
  qwen: { id: 'qwen', label: 'Qwen (DashScope)', protocol: 'chat-completions', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyEnv: 'DASHSCOPE_API_KEY', defaultModel: 'qwen-vl-max' },
  kimi: { id: 'kimi', label: 'Kimi (Moonshot)', protocol: 'chat-completions', baseUrl: 'https://api.moonshot.cn/v1', keyEnv: 'MOONSHOT_API_KEY', defaultModel: 'moonshot-v1-8k-vision-preview' },
  deepseek: { id: 'deepseek', label: 'DeepSeek', protocol: 'chat-completions', baseUrl: 'https://api.deepseek.com/v1', keyEnv: 'DEEPSEEK_API_KEY', defaultModel: 'deepseek-chat' },
  zhipu: { id: 'zhipu', label: 'Zhipu GLM', protocol: 'chat-completions', baseUrl: 'https://open.bigmodel.cn/api/paas/v4', keyEnv: 'ZHIPUAI_API_KEY', defaultModel: 'glm-4v-plus' },
  ollama: { id: 'ollama', label: 'Ollama (local)', protocol: 'chat-completions', baseUrl: 'http://127.0.0.1:11434/v1', keyEnv: null, defaultModel: 'llava' },
  custom: { id: 'custom', label: 'Custom (OpenAI-compatible)', protocol: 'chat-completions', baseUrl: null, keyEnv: null, defaultModel: null },
};

import { describe, expect, it } from 'vitest';
import { formatMessage } from '../../i18n/messages';
import type { SettingsView } from '../../store/settingsSlice';
import { describeEnvOverrides } from './envOverrideLabels';

const providers = [
  { id: 'custom', label: 'Custom (OpenAI-compatible)' },
  { id: 'qwen', label: 'qwen' },
] as unknown as SettingsView['providers'];

describe('settings overridden by environment variables, as users read them', () => {
  it('names settings instead of showing field paths such as providers.custom.baseUrl', () => {
    const t = (key: Parameters<typeof formatMessage>[1], params?: Record<string, string | number>) => formatMessage('en', key, params);
    const text = describeEnvOverrides(['providers.custom.baseUrl', 'roles.vision', 'cad.host', 'cad.port', 'providers.qwen', 'limits.maxImageBytes'], providers, t);
    expect(text).toEqual(['address of provider Custom (OpenAI-compatible) (custom)', 'Vision model', 'AutoCAD address', 'provider qwen', 'limit "maxImageBytes"']);
    expect(text.join(' ')).not.toMatch(/providers\.|roles\.|cad\./);
  });

  it('does so in Chinese', () => {
    const t = (key: Parameters<typeof formatMessage>[1], params?: Record<string, string | number>) => formatMessage('zh-CN', key, params);
    expect(describeEnvOverrides(['providers.custom.baseUrl', 'cad.allowRemote'], providers, t)).toEqual(['服务商 Custom (OpenAI-compatible) (custom) 的地址', '连接其他电脑上的 AutoCAD']);
  });
});

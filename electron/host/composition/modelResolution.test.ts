import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors';
import type { SettingsService } from '../../platform/settings/settingsService';
import { resolveRoleModel } from './modelResolution';

// Settings with no provider and no role chosen: resolveProvider says LLM_NOT_CONFIGURED, as the real service does.
const emptySettings = {
  resolveProvider: () => {
    throw new AppError('LLM_NOT_CONFIGURED', 'no model chosen for the role');
  },
} as unknown as SettingsService;

describe('role model resolution shared by cadsight review and cadsight gen', () => {
  it('falls back to DEFAULT_PROVIDER and CHAT_* variables the README documents when settings choose nothing', () => {
    const provider = resolveRoleModel(emptySettings, { DEFAULT_PROVIDER: 'chat', CHAT_BASE_URL: 'http://127.0.0.1:9/v1', CHAT_MODEL: 'local-model' }, 'reviewer');
    expect(provider).toMatchObject({ id: 'chat', protocol: 'chat-completions', model: 'local-model', baseUrl: 'http://127.0.0.1:9/v1' });
  });

  it('honours an explicit provider/model override from the environment', () => {
    const provider = resolveRoleModel(emptySettings, { CHAT_BASE_URL: 'http://127.0.0.1:9/v1', CHAT_MODEL: 'a' }, 'author', 'chat/b');
    expect(provider.model).toBe('b');
  });

  it('names what to set when neither settings nor the environment configure a model', () => {
    expect(() => resolveRoleModel(emptySettings, {}, 'author')).toThrow(expect.objectContaining({ code: 'LLM_NOT_CONFIGURED' }));
  });
});

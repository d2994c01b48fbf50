import { describe, expect, it } from 'vitest';
import { visionConfigFromEnv } from './config';

const base = { DEFAULT_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-config-test' };
const read = (env: Record<string, string>) => visionConfigFromEnv({ ...base, ...env }, { dataDir: '/tmp/cadsight-config-test' });

describe('cadsight-vision configuration', () => {
  it("accepts picsense's VIDEO_MAX_FRAMES=30 and caps it at SESSION_MAX_IMAGES with one notice", () => {
    const config = read({ VIDEO_MAX_FRAMES: '30' });
    expect(config.videoMaxFrames).toBe(8);
    expect(config.notices).toEqual(['VIDEO_MAX_FRAMES=30 is capped at SESSION_MAX_IMAGES=8 frames per video call.']);
    expect(read({ VIDEO_MAX_FRAMES: '30', SESSION_MAX_IMAGES: '40' })).toMatchObject({ videoMaxFrames: 30, notices: [] });
    expect(read({ VIDEO_MAX_FRAMES: '5' })).toMatchObject({ videoMaxFrames: 5, notices: [] });
  });

  it('still refuses a VIDEO_MAX_FRAMES that is not a positive whole number', () => {
    for (const value of ['0', '2.5', 'many']) expect(() => read({ VIDEO_MAX_FRAMES: value }), value).toThrow(expect.objectContaining({ code: 'SETTINGS_INVALID' }));
  });

  it('posts to /v1/responses for an OPENAI_BASE_URL without a path, as picsense does', () => {
    expect(read({ OPENAI_BASE_URL: 'https://gw.example.com' }).provider.baseUrl).toBe('https://gw.example.com/v1');
    expect(read({ OPENAI_BASE_URL: 'https://gw.example.com/' }).provider.baseUrl).toBe('https://gw.example.com/v1');
    expect(read({ OPENAI_BASE_URL: 'https://gw.example.com/v1' }).provider.baseUrl).toBe('https://gw.example.com/v1');
    expect(read({ OPENAI_BASE_URL: 'https://gw.example.com/openai/v1/' }).provider.baseUrl).toBe('https://gw.example.com/openai/v1/');
  });
});

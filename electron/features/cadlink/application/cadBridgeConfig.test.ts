import { describe, expect, it } from 'vitest';
import { parseCadBridgeConfig } from './cadBridgeConfig';

describe('parseCadBridgeConfig', () => {
  it('defaults to 127.0.0.1:8080, read-write, 60 s calls', () => {
    expect(parseCadBridgeConfig([], {})).toEqual({ endpoint: { host: '127.0.0.1', port: 8080 }, readOnly: false, requestTimeoutMs: 60000, maxResultBytes: 10 * 1024 * 1024 - 64 * 1024, logLevel: 'info', help: false });
  });

  it('takes CAD_HOST/CAD_PORT from the environment and lets --cad override them', () => {
    expect(parseCadBridgeConfig([], { CAD_HOST: '10.0.0.5', CAD_PORT: '9000' }).endpoint).toEqual({ host: '10.0.0.5', port: 9000 });
    expect(parseCadBridgeConfig(['--cad', '127.0.0.1:7000'], { CAD_PORT: '9000' }).endpoint).toEqual({ host: '127.0.0.1', port: 7000 });
    expect(parseCadBridgeConfig(['--cad=[::1]:7001'], {}).endpoint).toEqual({ host: '::1', port: 7001 });
  });

  it('reads read-only mode and a custom whitelist', () => {
    expect(parseCadBridgeConfig(['--read-only'], {}).readOnly).toBe(true);
    expect(parseCadBridgeConfig([], { CAD_READ_ONLY: 'yes', CAD_READ_ONLY_TOOLS: ' get_layers, ,find_frames ' })).toMatchObject({ readOnly: true, readOnlyTools: ['get_layers', 'find_frames'] });
  });

  it('names the bad setting in a typed error', () => {
    expect(() => parseCadBridgeConfig(['--verbose'], {})).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID', data: { setting: 'argument', value: '--verbose' } }));
    expect(() => parseCadBridgeConfig(['--cad'], {})).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
    expect(() => parseCadBridgeConfig([], { CAD_PORT: '99999' })).toThrow(expect.objectContaining({ code: 'CAD_BAD_ENDPOINT' }));
    expect(() => parseCadBridgeConfig([], { CAD_TIMEOUT_MS: '-1' })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID', data: expect.objectContaining({ setting: 'CAD_TIMEOUT_MS' }) }));
    expect(() => parseCadBridgeConfig([], { CAD_BRIDGE_MAX_RESULT_BYTES: '1e3x' })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
    expect(() => parseCadBridgeConfig([], { LOG_LEVEL: 'loud' })).toThrow(expect.objectContaining({ code: 'CAD_CONFIG_INVALID' }));
  });

  it('takes the dxf-server token from --token or CADSIGHT_CAD_TOKEN and never echoes a bad one', () => {
    expect(parseCadBridgeConfig(['--token', 'abcdefghijklmnop-1'], {}).token).toBe('abcdefghijklmnop-1');
    expect(parseCadBridgeConfig([], { CADSIGHT_CAD_TOKEN: ' abcdefghijklmnop-2 ' }).token).toBe('abcdefghijklmnop-2');
    expect(parseCadBridgeConfig([], {}).token).toBeUndefined();
    const short = (() => {
      try {
        parseCadBridgeConfig(['--token', 'short secret'], {});
      } catch (error) {
        return error;
      }
    })();
    expect(short).toMatchObject({ code: 'CAD_CONFIG_INVALID' });
    expect(JSON.stringify(short) + String((short as Error).message)).not.toContain('short secret');
  });
});

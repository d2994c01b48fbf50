import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createToolPolicy, isWriteLikeToolName } from './toolPolicy';
import { BACKEND_PROFILES, DEFAULT_READ_ONLY_WHITELIST, resolveCapabilities } from './capabilities';

const writePrefixArb = fc.constantFrom('add_', 'delete_', 'set_', 'draw_', 'create_', 'erase_', 'move_', 'save', 'ADD_', 'Save');

describe('toolPolicy', () => {
  it('refuses every write-like name in a read-only session and never lets one be whitelisted', () => {
    fc.assert(
      fc.property(writePrefixArb, fc.string({ maxLength: 12 }), (prefix, rest) => {
        const name = `${prefix}${rest}`;
        expect(isWriteLikeToolName(name)).toBe(true);
        expect(createToolPolicy({ mode: 'read-only' }).check(name).allowed).toBe(false);
        expect(() => createToolPolicy({ mode: 'read-only', readOnlyWhitelist: ['get_layers', name] })).toThrow(expect.objectContaining({ code: 'CAD_POLICY_INVALID' }));
      }),
    );
  });

  it('denies by default: a read-only session refuses any tool not on its whitelist', () => {
    const policy = createToolPolicy({ mode: 'read-only', readOnlyWhitelist: ['get_layers'] });
    fc.assert(
      fc.property(fc.string(), (name) => {
        expect(policy.check(name).allowed).toBe(name === 'get_layers');
      }),
    );
  });

  it('allows everything in a read-write session', () => {
    const policy = createToolPolicy({ mode: 'read-write' });
    expect(policy.check('add_leader_annotation')).toEqual({ allowed: true });
    expect(policy.check('anything')).toEqual({ allowed: true });
  });

  it('refuses empty whitelist entries with a clear error', () => {
    expect(() => createToolPolicy({ mode: 'read-only', readOnlyWhitelist: ['get_layers', ' '] })).toThrow(expect.objectContaining({ code: 'CAD_POLICY_INVALID' }));
  });

  it('has a default whitelist with only read tools, including every read tool of the DXF backend', () => {
    expect(DEFAULT_READ_ONLY_WHITELIST.filter(isWriteLikeToolName)).toEqual([]);
    expect(DEFAULT_READ_ONLY_WHITELIST).toEqual(expect.arrayContaining(['get_drawing_info', 'get_layers', 'get_entities', 'get_entity', 'get_texts', 'get_dimensions', 'get_blocks', 'find_frames', 'find_zero_length', 'find_duplicate_entities', 'get_screenshot']));
  });

  it('resolves capabilities against the announced tools and honours overrides', () => {
    const tools = ['get_screenshot', 'find_frames', 'get_layers', 'capture_view', 'add_leader_annotation'].map((name) => ({ name }));
    const resolved = resolveCapabilities('cad_mcp_frame', tools, { screenshot: 'capture_view' });
    expect(resolved.available).toEqual({ screenshot: 'capture_view', frames: 'find_frames', layers: 'get_layers', leaderWrite: 'add_leader_annotation' });
    expect(resolved.missing).toContain('save');
    expect(Object.isFrozen(BACKEND_PROFILES['cadsight-dxf'].capabilities)).toBe(true);
  });
});

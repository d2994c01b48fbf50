import { AppError } from '../../../../../shared/errors';
import { DEFAULT_READ_ONLY_WHITELIST } from './capabilities';

/**
 * Which CAD tools a session may call. A read-only session (the review's evidence phase, the
 * bridge with --read-only) may call only whitelisted tools: deny by default, so a tool the
 * plugin adds tomorrow is refused until someone whitelists it. Names that look like writes can
 * never be whitelisted, whatever the configuration says. The client enforces this before a
 * byte is written, so a refused call never reaches AutoCAD.
 */

/** Name shapes of tools that modify a drawing: add_*, delete_*, set_*, draw_*, create_*, erase_*, move_*, save*. */
export const WRITE_LIKE_TOOL_PATTERNS = ['add_*', 'delete_*', 'set_*', 'draw_*', 'create_*', 'erase_*', 'move_*', 'save*'] as const;

// Case-insensitive: AutoCAD plugins are not consistent about case, and "Save_As" is still a write.
const WRITE_LIKE = /^(add_|delete_|set_|draw_|create_|erase_|move_|save)/i;

/** True when the name matches one of WRITE_LIKE_TOOL_PATTERNS. */
export function isWriteLikeToolName(name: string): boolean {
  return WRITE_LIKE.test(name);
}

export type ToolPolicyMode = 'read-only' | 'read-write';

export type PolicyDecision = { allowed: true } | { allowed: false; reason: string };

export interface ToolPolicy {
  readonly mode: ToolPolicyMode;
  /** The tools a read-only session may call (validated: none is write-like). */
  readonly readOnlyWhitelist: readonly string[];
  /** Whether `toolName` may be called in this session, and why not. */
  check(toolName: string): PolicyDecision;
}

export interface ToolPolicyOptions {
  mode: ToolPolicyMode;
  /** Default DEFAULT_READ_ONLY_WHITELIST (the read tools of both known backends). */
  readOnlyWhitelist?: readonly string[];
}

/**
 * Builds a policy. Throws AppError CAD_POLICY_INVALID (data: { names }) when the whitelist
 * contains a write-like name or a non-string / empty name: a misconfiguration must fail loudly,
 * not silently drop the entry.
 */
export function createToolPolicy(options: ToolPolicyOptions): ToolPolicy {
  const whitelist = options.readOnlyWhitelist ?? DEFAULT_READ_ONLY_WHITELIST;
  const malformed = whitelist.filter((name) => typeof name !== 'string' || name.trim().length === 0);
  if (malformed.length > 0) {
    throw new AppError('CAD_POLICY_INVALID', 'The read-only whitelist contains empty or non-string tool names.', { data: { names: malformed.map(String) } });
  }
  const writeLike = whitelist.filter(isWriteLikeToolName);
  if (writeLike.length > 0) {
    throw new AppError(
      'CAD_POLICY_INVALID',
      `These tools modify the drawing and can never be on the read-only whitelist: ${writeLike.join(', ')} (refused patterns: ${WRITE_LIKE_TOOL_PATTERNS.join(', ')}).`,
      { data: { names: writeLike, patterns: [...WRITE_LIKE_TOOL_PATTERNS] } },
    );
  }
  const allowed = new Set(whitelist);
  const frozenWhitelist = Object.freeze([...allowed]);
  return {
    mode: options.mode,
    readOnlyWhitelist: frozenWhitelist,
    check(toolName) {
      if (options.mode === 'read-write') return { allowed: true };
      if (isWriteLikeToolName(toolName)) return { allowed: false, reason: `"${toolName}" modifies the drawing and this session is read-only.` };
      if (!allowed.has(toolName)) return { allowed: false, reason: `"${toolName}" is not on the read-only whitelist of this session.` };
      return { allowed: true };
    },
  };
}

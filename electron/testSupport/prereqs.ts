import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// The one prerequisite table (scripts/prereqs/prereqs.mjs): tests find tools the way npm test did.
import { PREREQS, RESOLVED_FILE, type Prereq } from '../../scripts/prereqs/prereqs.mjs';

type ToolId = Prereq['id'];
/** Skips are collected here and summarised by vitest's global teardown (scripts/vitestGlobalSetup.ts). */
export const SKIP_LOG = '.cache/test-skips.jsonl';

const isCi = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** The path `npm test` resolved for a tool, or a fresh probe when the tests run on their own. */
export function toolPath(id: ToolId): string | undefined {
  if (existsSync(RESOLVED_FILE)) {
    const resolved = JSON.parse(readFileSync(RESOLVED_FILE, 'utf8')) as Partial<Record<ToolId, string | null>>;
    const value = resolved[id];
    if (value && existsSync(value)) return value;
  }
  return PREREQS.find((p) => p.id === id)?.find(process.env);
}

/**
 * Python with ezdxf for tests that validate written DXF independently. Outside CI a missing
 * ezdxf returns undefined (the caller skips; the skip is printed and counted in the run's
 * summary). Under CI=true it throws, so no behaviour goes unchecked on CI.
 */
export function ezdxfPython(testName: string): string | undefined {
  const python = toolPath('python');
  if (python) return python;
  const reason = 'Python with ezdxf not found (Debian: apt-get install python3-ezdxf; see npm test output)';
  if (isCi()) throw new Error(`${testName}: ${reason}; CI=true does not allow skipping it`);
  console.log(`[${testName}] skipped: ${reason}`);
  mkdirSync(path.dirname(SKIP_LOG), { recursive: true });
  appendFileSync(SKIP_LOG, `${JSON.stringify({ test: testName, reason })}\n`);
  return undefined;
}

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '..');
const depcruise = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Builds a tiny tree with the project's layer config and the given files, then runs the check. */
function cruise(files: Record<string, string>): { ok: boolean; output: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'layers-'));
  copyFileSync(path.join(repo, '.dependency-cruiser.cjs'), path.join(root, '.dependency-cruiser.cjs'));
  copyFileSync(path.join(repo, 'tsconfig.base.json'), path.join(root, 'tsconfig.base.json'));
  writeFileSync(path.join(root, 'tsconfig.node.json'), JSON.stringify({ extends: './tsconfig.base.json', include: ['**/*.ts'] }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  try {
    const output = execFileSync(process.execPath, [depcruise, '--config', '.dependency-cruiser.cjs', 'electron', 'shared', 'renderer'], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { ok: true, output };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const clean = {
  'shared/ids.ts': 'export const a = 1;\n',
  'electron/features/vision/domain/model.ts': "import { a } from '../../../../shared/ids';\nexport const b = a;\n",
  'electron/features/vision/index.ts': "export { b } from './domain/model';\n",
  'electron/features/review/application/run.ts': "import { b } from '../../vision/index';\nexport const c = b;\n",
  'electron/host/cli.ts': "import { c } from '../features/review/application/run';\nexport const d = c;\n",
  'renderer/app.ts': "import { a } from '../shared/ids';\nexport const e = a;\n",
  'electron/features/vision/adapters/visionMigrations.ts': 'export const visionMigrations = [];\n',
  'electron/features/vision/migrations.ts': "export { visionMigrations } from './adapters/visionMigrations';\n",
  'electron/host/migrations.ts': "import { visionMigrations } from '../features/vision/migrations';\nexport const all = [...visionMigrations];\n",
};

describe('layer rules', () => {
  it('accept a tree that follows them', () => {
    const result = cruise({ ...clean, 'electron/host/cli.ts': "import { b } from '../features/vision/index';\nexport const d = b;\n" });
    expect(result.output).toContain('no dependency violations');
    expect(result.ok).toBe(true);
  });

  // One run with every planted violation (each cruise costs seconds on a busy machine).
  const violations: [string, string, string, string][] = [
    ['shared importing node:fs', 'shared/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'shared-imports-only-shared'],
    ['the renderer importing main-side code', 'renderer/bad.ts', "import { b } from '../electron/features/vision/index';\nexport const x = b;\n", 'renderer-imports-renderer-or-shared'],
    ['a domain module importing node:fs', 'electron/features/vision/domain/bad.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'domain-no-node-builtins'],
    ['a slice reaching into another slice', 'electron/features/review/application/bad.ts', "import { b } from '../../vision/domain/model';\nexport const x = b;\n", 'slices-use-public-entries-only'],
    ['platform importing a feature', 'electron/platform/bad.ts', "import { b } from '../features/vision/index';\nexport const x = b;\n", 'platform-never-imports-features'],
    ['application importing an adapter', 'electron/features/vision/application/bad.ts', "import { y } from '../adapters/http';\nexport const x = y;\n", 'application-never-imports-adapters'],
    // Through another slice's index.ts, which the slice rule allows: only the reachability rule sees it.
    ['a migrations entry that loads more than migrations', 'electron/features/review/migrations.ts', "export { b as reviewMigrations } from '../vision/index';\n", 'migrations-entries-stay-light'],
  ];
  const planted = Object.fromEntries(violations.map(([, file, text]) => [file, text]));
  const result = cruise({ ...clean, 'electron/features/vision/adapters/http.ts': 'export const y = 1;\n', ...planted });

  it('fail the check when any violation is planted', () => {
    expect(result.ok).toBe(false);
  });

  it.each(violations)('name the rule broken by %s', (_label, file, _text, rule) => {
    expect(result.output).toMatch(new RegExp(`${rule}[^\\n]*${file.replaceAll('.', '\\.')}`));
  });
});

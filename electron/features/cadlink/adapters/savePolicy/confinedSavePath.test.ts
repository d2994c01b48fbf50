import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createConfinedSaveLocator } from './confinedSavePath';

let dir: string;
let source: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'save-policy-')));
  mkdirSync(path.join(dir, 'sub'));
  source = path.join(dir, 'sub', 'orig.dxf');
  writeFileSync(source, '0\nEOF\n');
});

const code = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'no error', (error: { code?: string }) => error.code);

describe('createConfinedSaveLocator', () => {
  it('refuses the original behind "//", "/./", "/../" and a symlink, even when the call says overwrite_original', async () => {
    symlinkSync(source, path.join(dir, 'sub', 'link.ai-review.dxf'));
    const locator = createConfinedSaveLocator(source);
    for (const spelled of [`${dir}/sub//orig.dxf`, `${dir}/sub/./orig.dxf`, `${dir}/sub/../sub/orig.dxf`, 'orig.dxf', './orig.dxf']) {
      expect(await code(locator.locate(spelled, true))).toBe('CAD_DXF_OVERWRITE_REFUSED');
    }
    // A link named like a review copy is not a regular file: writing through it would hit the original.
    expect(await code(locator.locate(`${dir}/sub/link.ai-review.dxf`, false))).toBe('CAD_DXF_SAVE_REFUSED');
  });

  it('refuses files outside the drawing folder and names that are not review copies', async () => {
    const locator = createConfinedSaveLocator(source);
    for (const target of ['/home/u/.bashrc', `${dir}/sub/../evil.ai-review.dxf`, `${dir}/sub/notes.txt`, `${dir}/sub/other.dxf`, `${dir}/sub/orig.ai-review.dxf.exe`, '/etc/cron.d/x.ai-review.dxf']) {
      expect(await code(locator.locate(target, false))).toBe('CAD_DXF_SAVE_REFUSED');
    }
  });

  it('picks the first free <name>.ai-review[-N].dxf and never an existing file by default', async () => {
    const locator = createConfinedSaveLocator(source);
    expect(await locator.locate(undefined, false)).toBe(path.join(dir, 'sub', 'orig.ai-review.dxf'));
    writeFileSync(path.join(dir, 'sub', 'orig.ai-review.dxf'), 'x');
    writeFileSync(path.join(dir, 'sub', 'orig.ai-review-1.dxf'), 'x');
    expect(await locator.locate(undefined, false)).toBe(path.join(dir, 'sub', 'orig.ai-review-2.dxf'));
    expect(await code(locator.locate('orig.ai-review.dxf', false))).toBe('CAD_DXF_OVERWRITE_REFUSED');
    expect(await locator.locate('orig.ai-review-7.dxf', false)).toBe(path.join(dir, 'sub', 'orig.ai-review-7.dxf'));
  });

  it('writes into the --output-dir folder and replaces files only with allowOverwrite', async () => {
    const out = path.join(dir, 'out');
    mkdirSync(out);
    writeFileSync(path.join(out, 'taken.dxf'), 'x');
    const strict = createConfinedSaveLocator(source, { outputDir: out });
    expect(await strict.locate(path.join(out, 'any name.dxf'), false)).toBe(path.join(out, 'any name.dxf'));
    expect(await code(strict.locate(path.join(out, 'taken.dxf'), false))).toBe('CAD_DXF_OVERWRITE_REFUSED');
    expect(await code(strict.locate(path.join(out, 'nested', 'x.dxf'), false))).toBe('CAD_DXF_SAVE_REFUSED');
    const lenient = createConfinedSaveLocator(source, { outputDir: out, allowOverwrite: true });
    expect(await lenient.locate(path.join(out, 'taken.dxf'), false)).toBe(path.join(out, 'taken.dxf'));
    expect(await code(lenient.locate(source, false))).toBe('CAD_DXF_OVERWRITE_REFUSED');
    expect(await lenient.locate(source, true)).toBe(source);
  });

  it('lets a review copy that is itself open be re-saved under its own name when overwriting is allowed', async () => {
    const copy = path.join(dir, 'sub', 'orig.ai-review.dxf');
    writeFileSync(copy, 'x');
    expect(await createConfinedSaveLocator(copy, { allowOverwrite: true }).locate(copy, true)).toBe(copy);
    expect(await createConfinedSaveLocator(copy).locate(undefined, false)).toBe(path.join(dir, 'sub', 'orig.ai-review-1.dxf'));
  });
});

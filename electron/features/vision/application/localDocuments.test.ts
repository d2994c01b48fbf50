import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startVisionHarness, type VisionHarness } from '../../../testSupport/visionFixtures/harness';
import { solidPng } from '../../../testSupport/visionFixtures/images';

let harness: VisionHarness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await harness?.close();
  if (outside) rmSync(outside, { recursive: true, force: true });
  harness = undefined;
  outside = undefined;
});

/** A docs folder inside the allowed root: docs/guide.md and docs/page.html referencing images/part.png relatively. */
async function docsFolder(h: VisionHarness): Promise<string> {
  const docs = path.join(h.dir, 'allowed', 'docs');
  mkdirSync(path.join(docs, 'images'), { recursive: true });
  writeFileSync(path.join(docs, 'images', 'part.png'), await solidPng(40, 30));
  writeFileSync(path.join(docs, 'guide.md'), '# Guide\n\nThe part:\n\n![part](images/part.png)\n\nEscaping: ![secret](../../secret.png)\n');
  writeFileSync(path.join(docs, 'page.html'), '<!doctype html><html><body><p>Part</p><img src="images/part.png" alt="part"></body></html>');
  writeFileSync(path.join(h.dir, 'secret.png'), await solidPng(8, 8));
  return docs;
}

describe('analyze_document with local documents', () => {
  it('reads a local markdown path inside the allowed roots and resolves its relative images against it', async () => {
    // Relative roots resolve against the harness folder (the server's working directory).
    harness = await startVisionHarness({ script: () => ({ text: 'A grey block.' }), allowedRoots: ['allowed'] });
    const docs = await docsFolder(harness);
    const result = await harness.service.analyzeDocument({ document: path.join(docs, 'guide.md') });
    expect(result.format).toBe('markdown');
    expect(result.imagesAnalyzed).toBe(1);
    expect(result.document).toContain('![part](images/part.png) <!-- image-vision: A grey block. -->');
    // The image outside the allowed root is refused, named, and the document says so.
    expect(result.failed).toEqual([expect.objectContaining({ code: 'VISION_PATH_NOT_ALLOWED' })]);
    expect(result.document).toContain('[识别失败: VISION_PATH_NOT_ALLOWED');
    expect(JSON.stringify(harness.provider.requests)).not.toContain(docs);
  });

  it('reads an HTML document given as a file:// URL', async () => {
    // Relative roots resolve against the harness folder (the server's working directory).
    harness = await startVisionHarness({ script: () => ({ text: 'The part.' }), allowedRoots: ['allowed'] });
    const docs = await docsFolder(harness);
    const result = await harness.service.analyzeDocument({ document: pathToFileURL(path.join(docs, 'page.html')).href });
    expect(result).toMatchObject({ format: 'html', imagesAnalyzed: 1, failed: [] });
    expect(result.document).toContain('<!-- image-vision: The part. -->');
  });

  it('refuses a local document outside the allowed roots, a missing one, and text without images, with typed errors', async () => {
    // Relative roots resolve against the harness folder (the server's working directory).
    harness = await startVisionHarness({ script: () => ({ text: 'never' }), allowedRoots: ['allowed'] });
    outside = mkdtempSync(path.join(tmpdir(), 'cadsight-doc-outside-'));
    writeFileSync(path.join(outside, 'notes.md'), '![x](x.png)');
    await expect(harness.service.analyzeDocument({ document: path.join(outside, 'notes.md') })).rejects.toMatchObject({ code: 'VISION_PATH_NOT_ALLOWED' });
    await expect(harness.service.analyzeDocument({ document: path.join(harness.dir, 'allowed', 'missing.md') })).rejects.toMatchObject({ code: 'VISION_FILE_NOT_FOUND' });
    await expect(harness.service.analyzeDocument({ document: '# Notes\n\nNo pictures here.' })).rejects.toMatchObject({ code: 'VISION_DOCUMENT_NO_IMAGES', data: expect.objectContaining({ hint: expect.any(String) }) });
    expect(harness.provider.requests).toHaveLength(0);
  });
});

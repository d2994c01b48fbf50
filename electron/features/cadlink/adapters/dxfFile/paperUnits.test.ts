import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDxfBackend } from './openDxfBackend';

const fixture = (name: string): string => path.resolve('electron/testSupport/fixtures/dxf', name);
const corpusFile = path.resolve('../shared/corpus/dxf/cn_arch_tangent_gh109_1_R2013.dxf');
const hasCorpus = existsSync(corpusFile);
if (!hasCorpus) console.log(`[paperUnits.test] inch-layout case skipped: ${corpusFile} is not present (shared corpus not mounted)`);

async function framesOf(file: string): Promise<Array<{ layout: string; paperUnitsPerMm?: number }>> {
  const backend = await openDxfBackend(file);
  const result = await backend.callTool('find_frames', {});
  return JSON.parse((result.content[0] as { text: string }).text).frames;
}

describe('paper units of frames on paper layouts', () => {
  it('reports 1 drawing unit per paper mm for a layout whose plot settings are in millimetres', async () => {
    const frames = await framesOf(fixture('mech_flange_layouts.dxf'));
    const onPaper = frames.filter((f) => f.layout !== 'Model');
    expect(onPaper.length).toBeGreaterThan(0);
    for (const frame of onPaper) expect(frame.paperUnitsPerMm).toBe(1);
  });

  it.skipIf(!hasCorpus)('reads inch paper from the layout plot settings (text heights are inches, not mm)', async () => {
    const frames = await framesOf(corpusFile);
    expect(frames.find((f) => f.layout === 'layout1')?.paperUnitsPerMm).toBeCloseTo(1 / 25.4, 5);
  });
});

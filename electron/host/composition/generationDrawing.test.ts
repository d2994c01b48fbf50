import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCompletedTask, readFixture, type GenerationHarness } from './generationHandlers.testSupport';

const fixture = readFixture('flange');
type Drawing = {
  taskId: string; revision: string; sheet: string; scale: string; projection: string;
  findings: { total: number; blocking: number; major: number; minor: number; info: number }; hasBlocking: boolean;
  claims: { claimId: string; kind: string; dimensions: string[]; reason: string | null }[];
  dxf: string; pdf: string; report: string; preview: string;
};
type Artifact = { mediaType: string; size: number; base64: string };

let completed: Awaited<ReturnType<typeof openCompletedTask>> | undefined;
let h: GenerationHarness;
let taskId = '';

beforeAll(async () => {
  completed = await openCompletedTask(fixture);
  ({ h, taskId } = completed);
}, 120_000);

afterAll(async () => {
  await completed?.close();
});

const bytesOf = async (name: string): Promise<Artifact> => h.call<Artifact>('genGetArtifact', { taskId, name });

describe('genMakeDrawing: the GB drawing of a completed task from the Generate view', () => {
  let made: Drawing;

  it('draws the head revision of the completed flange into its revision folder and states the self-review counts', async () => {
    made = await h.call<Drawing>('genMakeDrawing', { taskId, lang: 'en' });
    expect(made).toMatchObject({ taskId, revision: 'rev_003', projection: 'first-angle', hasBlocking: false });
    expect(['A4', 'A3', 'A2']).toContain(made.sheet);
    expect(made.scale).toMatch(/^\d+:\d+$/);
    expect(made.findings.blocking).toBe(0);
    for (const [key, file] of [['dxf', 'drawing.dxf'], ['pdf', 'drawing.pdf'], ['report', 'drawing-report.json'], ['preview', 'drawing.png']] as const) {
      expect(made[key]).toBe(`revisions/rev_003/drawing/${file}`);
    }
    // The flange's diameters are dimensioned with Ø, and the hole pattern as a count callout.
    const texts = made.claims.flatMap((c) => c.dimensions).join(' | ');
    expect(texts).toContain('Ø');
    expect(made.claims.some((c) => c.dimensions.length > 0)).toBe(true);
  }, 120_000);

  it('serves the DXF, PDF and preview bytes for download through genGetArtifact, with their media types', async () => {
    const dxf = await bytesOf(made.dxf);
    expect(dxf.mediaType).toBe('image/vnd.dxf');
    const text = Buffer.from(dxf.base64, 'base64').toString('utf8');
    expect(text.trimStart().startsWith('0\r\nSECTION') || text.trimStart().startsWith('0\nSECTION')).toBe(true);
    expect(text).toContain('DIMENSION');
    const pdf = await bytesOf(made.pdf);
    expect(pdf.mediaType).toBe('application/pdf');
    expect(Buffer.from(pdf.base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const png = Buffer.from((await bytesOf(made.preview)).base64, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // A real picture of the sheet: wider than tall (landscape A-format) and not tiny.
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBeGreaterThan(height);
    expect(width).toBeGreaterThanOrEqual(1000);
  });

  it('writes a DXF that ezdxf (the independent reader) audits clean', () => {
    const file = path.join(h.tasksRoot, taskId, made.dxf);
    const run = spawnSync('/usr/bin/python3', ['-c', 'import sys, ezdxf\nd = ezdxf.readfile(sys.argv[1])\nprint(len(d.audit().errors))', file], { encoding: 'utf8' });
    if (run.status !== 0 && /No module named/.test(run.stderr)) return void console.warn('skipped: ezdxf is not installed for /usr/bin/python3');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('0');
    expect(JSON.parse(readFileSync(path.join(h.tasksRoot, taskId, made.report), 'utf8'))).toMatchObject({ projection: 'first_angle' });
  });

  it('honours a third-angle A2 choice', async () => {
    const again = await h.call<Drawing>('genMakeDrawing', { taskId, sheet: 'A2', projection: 'third-angle' });
    expect(again).toMatchObject({ sheet: 'A2', projection: 'third-angle', revision: 'rev_003' });
  }, 120_000);

  it('refuses an unknown task, an unknown revision and a bad sheet size with typed errors', async () => {
    expect(await h.refusal('genMakeDrawing', { taskId: 'task_nosuchtask' })).toBe('CDSL_TASK_NOT_FOUND');
    expect(await h.refusal('genMakeDrawing', { taskId, revision: 'rev_999' })).toBe('CDSL_REQUEST_INVALID');
    expect(await h.refusal('genMakeDrawing', { taskId, sheet: 'A0' })).toBe('IPC_INVALID_INPUT');
  });
});

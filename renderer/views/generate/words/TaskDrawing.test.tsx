import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { completedDetail, inProgressDetail, TASK_ID } from './taskFixtures';
import { recordSavedFiles, renderGenerate, testBridge } from './testBridge';

const saved = recordSavedFiles();

const click = async (testId: string): Promise<void> => {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
};

describe('Describe a part: the Drawing button of a completed task', () => {
  it('is offered on a completed task only, not while the task is still being built', async () => {
    await renderGenerate(testBridge(inProgressDetail('CANDIDATE_BUILDING')), 'en', TASK_ID);
    expect(screen.queryByTestId('gen-drawing-open')).toBeNull();
    cleanup();
    await renderGenerate(testBridge(completedDetail()), 'en', TASK_ID);
    expect(screen.getByTestId('gen-drawing-open').textContent).toBe('Drawing');
  });

  it('defaults to an auto sheet, first-angle projection and the UI language, and is busy until the host answers', async () => {
    const b = testBridge(completedDetail());
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const original = b.calls.genMakeDrawing.getMockImplementation() as (input: never) => Promise<unknown>;
    b.calls.genMakeDrawing.mockImplementation(async (input: never) => {
      await held;
      return original(input);
    });
    await renderGenerate(b, 'zh-CN', TASK_ID);
    expect(screen.getByTestId('gen-drawing-open').textContent).toBe('工程图');
    await click('gen-drawing-open');
    expect((screen.getByTestId('gen-drawing-sheet') as HTMLSelectElement).value).toBe('auto');
    expect((screen.getByTestId('gen-drawing-projection') as HTMLSelectElement).value).toBe('first-angle');
    expect((screen.getByTestId('gen-drawing-lang') as HTMLSelectElement).value).toBe('zh-CN');
    await click('gen-drawing-make');
    const make = screen.getByTestId('gen-drawing-make') as HTMLButtonElement;
    expect(make.disabled).toBe(true);
    expect(make.textContent).toContain('正在出图');
    expect(screen.getByTestId('gen-drawing').getAttribute('aria-busy')).toBe('true');
    await act(async () => {
      answer();
      await held;
    });
    expect(b.calls.genMakeDrawing).toHaveBeenCalledWith({ taskId: TASK_ID, revision: 'rev_003', sheet: 'auto', projection: 'first-angle', lang: 'zh-CN' });
    expect((screen.getByTestId('gen-drawing-make') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('gen-drawing-review').textContent).toContain('阻断 0');
    expect(screen.getByTestId('gen-drawing-result').getAttribute('data-blocking')).toBe('false');
  });

  it('shows the sheet preview, the finding counts and the claim dimensions, and downloads the DXF and PDF', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b, 'en', TASK_ID);
    await click('gen-drawing-open');
    await click('gen-drawing-make');
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_003/drawing/drawing.png' });
    expect(screen.getByTestId('gen-drawing-preview').getAttribute('src')).toBe('blob:test/1');
    expect(screen.getByTestId('gen-drawing-result').textContent).toContain('A3, scale 1:1, First angle (GB)');
    expect(screen.getByTestId('gen-drawing-result').textContent).toContain('4×Ø10 EQS');
    expect(screen.getByTestId('gen-drawing-review').textContent).toBe('Self-review (rules only): 3 findings — blocking 0, major 1, minor 2 · No blocking finding');
    saved.length = 0;
    await click('gen-drawing-dxf');
    await click('gen-drawing-pdf');
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_003/drawing/drawing.dxf' });
    expect(b.calls.genGetArtifact).toHaveBeenCalledWith({ taskId: TASK_ID, name: 'revisions/rev_003/drawing/drawing.pdf' });
    expect(saved).toEqual([{ name: `${TASK_ID}-rev_003-drawing.dxf`, type: 'image/vnd.dxf' }, { name: `${TASK_ID}-rev_003-drawing.pdf`, type: 'application/pdf' }]);
  });

  it('marks a drawing with blocking findings as not passing, with the chosen sheet and projection', async () => {
    const b = testBridge(completedDetail());
    await renderGenerate(b, 'en', TASK_ID);
    await click('gen-drawing-open');
    fireEvent.change(screen.getByTestId('gen-drawing-sheet'), { target: { value: 'A4' } });
    fireEvent.change(screen.getByTestId('gen-drawing-projection'), { target: { value: 'third-angle' } });
    await click('gen-drawing-make');
    expect(b.calls.genMakeDrawing).toHaveBeenCalledWith({ taskId: TASK_ID, revision: 'rev_003', sheet: 'A4', projection: 'third-angle', lang: 'en' });
    expect(screen.getByTestId('gen-drawing-result').getAttribute('data-blocking')).toBe('true');
    expect(screen.getByTestId('gen-drawing-review').textContent).toContain('does not pass the review');
  });

  it('puts a refused drawing in the banner as a typed error and shows no result', async () => {
    const b = testBridge(completedDetail());
    b.failWith('genMakeDrawing', { code: 'CDSL_DRAWING_FAILED', message: 'revision "flange" did not rebuild with its projections; no drawing was made', retryable: false });
    const store = await renderGenerate(b, 'en', TASK_ID);
    await click('gen-drawing-open');
    await click('gen-drawing-make');
    expect(store.getState().banner.map((e) => e.error.code)).toContain('CDSL_DRAWING_FAILED');
    expect(screen.queryByTestId('gen-drawing-result')).toBeNull();
    expect((screen.getByTestId('gen-drawing-make') as HTMLButtonElement).disabled).toBe(false);
  });
});

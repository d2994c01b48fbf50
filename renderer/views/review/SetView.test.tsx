import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../shared/errors';
import { createAppStore } from '../../store/appStore';
import type { SetDetail } from '../../store/reviewSetSlice';
import { StoreProvider } from '../../store/StoreContext';
import { scriptedBridge, type ScriptedHandler } from '../../testSupport/scriptedBridge';
import { ReviewView } from './ReviewView';

const ok = (value: unknown): Result<unknown> => ({ ok: true, value });
const SET_ID = 'set-0f0e0d0c-0b0a-4909-8807-060504030201';
const summary = (status: SetDetail['set']['status'], done: number) => ({ id: SET_ID, name: 'pump', createdAt: '2026-12-01T00:00:00Z', status, files: 3, done, exitCode: status === 'completed' ? 1 : null, error: null });
const pending = (file: string) => ({ file, name: file, state: 'pending' as const, exitCode: null, findings: 0, runId: null, error: null });
const doneFile = (file: string, i: number) => ({ file, name: file, state: 'done' as const, exitCode: 1, findings: 4 + i, runId: `review-${i}`, error: null });
const FILES = ['a.dxf', 'b.dxf', 'c.dxf'];
const report = {
  createdAt: '2026-12-01T00:01:00Z',
  exitCode: 1,
  files: FILES.map((file, i) => ({ file, runId: `review-${i}`, exitCode: 1, findings: 4 + i, blocking: 1, frames: 1, error: null })),
  sheets: FILES.map((file, i) => ({ file, frameId: '92', title: `Part ${i}`, drawingNo: i < 2 ? 'CS-001' : 'CS-003', sheetNo: String(i + 1), sheetCount: '3', sheet: 'A3' })),
  crossSheet: [{ kind: 'duplicate_drawing_no', drawingNo: 'CS-001', keys: ['a.dxf#92', 'b.dxf#92'], message: 'Drawing number CS-001 is used twice or more: a.dxf#92, b.dxf#92.' }],
  findings: [{ file: 'a.dxf', frameId: '92', checklistItemId: 'TB-001', severity: 'blocking', message: 'Title block incomplete' }],
};

/** The scripted bridge, with events delivered inside act() so the view has re-rendered after each. */
function fakeBridge(handlers: Record<string, ScriptedHandler>) {
  const scripted = scriptedBridge(handlers);
  return { ...scripted, emit: (event: string, payload: unknown) => act(async () => scripted.emit(event, payload)) };
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function setup(locale: 'en' | 'zh-CN' = 'en') {
  let detail: SetDetail = { set: summary('draft', 0), files: FILES.map(pending), report: null };
  let uploaded = 0;
  const fake = fakeBridge({
    reviewGetDrawing: () => ok(null),
    reviewOpenSample: () => ok({ source: { kind: 'sample', label: 'sample.dxf', path: '/s.dxf' }, connection: null, tools: [], info: null, layers: [], frames: [], missingCapabilities: [], warnings: [] }),
    reviewListRuns: () => ok({ runs: [] }),
    reviewListSets: () => ok({ sets: uploaded > 0 ? [detail.set] : [] }),
    reviewSetCreate: () => ok({ setId: SET_ID }),
    reviewSetAddFile: () => ok({ files: ++uploaded }),
    reviewGetSet: () => ok(detail),
    reviewSetStart: () => {
      detail = { ...detail, set: summary('running', 0) };
      return ok({ setId: SET_ID, total: 3 });
    },
    reviewSetDownload: () => ok({ fileName: 'pump.set-report.md', mimeType: 'text/markdown', dataBase64: 'IyBzZXQ=' }),
    reviewGetRun: () => ok({ run: { id: 'review-0', source: 'a.dxf', status: 'completed', llm: false, createdAt: '', updatedAt: '', findings: 0, bySeverity: { blocking: 0, major: 0, minor: 0, info: 0 }, framesDone: 0, framesTotal: 0, error: null }, frames: [], findings: [], checklistItems: [], report: null, savedDrawing: null }),
  });
  const store = createAppStore(fake.bridge, locale);
  const finish = () => {
    detail = { set: summary('completed', 3), files: FILES.map(doneFile), report };
  };
  return { ...fake, store, finish };
}

async function mount(store: ReturnType<typeof setup>['store']) {
  await act(async () => {
    render(
      <StoreProvider store={store}>
        <ReviewView />
      </StoreProvider>,
    );
  });
}

const dxf = (name: string) => new File(['0\nSECTION\n'], name, { type: 'application/dxf' });

describe('drawing sets in the Review view', () => {
  it('uploads the chosen DXF files one by one into a new set and shows it, not started', async () => {
    const app = setup();
    await mount(app.store);
    await act(async () => {
      fireEvent.change(screen.getByTestId('set-files-input'), { target: { files: [dxf('b.dxf'), dxf('notes.txt'), dxf('a.dxf'), dxf('c.DXF')] } });
    });
    await waitFor(() => expect(screen.getByTestId('set-view').dataset.status).toBe('draft'));
    const added = app.calls.filter((c) => c.channel === 'reviewSetAddFile').map((c) => c.input.fileName);
    expect(added).toEqual(['a.dxf', 'b.dxf', 'c.DXF']);
    expect(app.calls.find((c) => c.channel === 'reviewSetCreate')!.input.name).toBe('a.dxf and 2 more');
    expect(screen.getAllByTestId('set-file').map((r) => r.dataset.state)).toEqual(['pending', 'pending', 'pending']);
  });

  it('starts the set, follows each file’s progress, then shows the set report with the duplicate drawing number and opens a file’s report', async () => {
    const app = setup();
    await mount(app.store);
    await act(async () => {
      fireEvent.change(screen.getByTestId('set-files-input'), { target: { files: FILES.map(dxf) } });
    });
    await waitFor(() => screen.getByTestId('set-start'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('set-start'));
    });
    expect(app.calls.find((c) => c.channel === 'reviewSetStart')!.input).toEqual({ setId: SET_ID, checklistPath: null, llm: false, model: null });
    await waitFor(() => expect(screen.getByTestId('set-view').dataset.status).toBe('running'));
    await app.emit('reviewSetProgress', { setId: SET_ID, done: 0, total: 3, file: { ...pending('a.dxf'), state: 'reviewing' } });
    expect(screen.getAllByTestId('set-file').map((r) => r.dataset.state)).toEqual(['reviewing', 'pending', 'pending']);
    await app.emit('reviewSetProgress', { setId: SET_ID, done: 1, total: 3, file: doneFile('a.dxf', 0) });
    expect(screen.getByTestId('set-progress').textContent).toBe('1 of 3 files reviewed');
    app.finish();
    await app.emit('reviewSetStatus', { setId: SET_ID, status: 'completed', error: null });
    await waitFor(() => expect(screen.getByTestId('set-view').dataset.status).toBe('completed'));
    expect(screen.getByTestId('set-cross-item').textContent).toContain('CS-001');
    expect(screen.getByTestId('set-cross-item').dataset.kind).toBe('duplicate_drawing_no');
    expect(screen.getByTestId('set-sheets').querySelectorAll('tbody tr')).toHaveLength(3);

    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:test/1', revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('set-download-markdown'));
    });
    expect(app.calls.find((c) => c.channel === 'reviewSetDownload')!.input).toEqual({ setId: SET_ID, kind: 'markdown' });
    expect(names).toEqual(['pump.set-report.md']);

    await act(async () => {
      fireEvent.click(screen.getAllByTestId('set-file-open')[0]!);
    });
    await waitFor(() => screen.getByTestId('run-view'));
    expect(app.calls.find((c) => c.channel === 'reviewGetRun')!.input).toEqual({ runId: 'review-0' });
    await act(async () => {
      fireEvent.click(screen.getByTestId('back-to-set'));
    });
    expect(screen.getByTestId('set-view')).toBeTruthy();
  });

  it('shows each file under the name it was uploaded as, also in the set report, not its stored name', async () => {
    const app = setup();
    await act(async () => app.store.setState({ set: { set: summary('completed', 2), files: [{ ...doneFile('a_b.dxf', 0), name: 'a b.dxf' }, { ...doneFile('a_b-2.dxf', 1), name: 'a_b.dxf' }], report: { ...report, sheets: [{ ...report.sheets[0]!, file: 'a_b-2.dxf' }], findings: [{ ...report.findings[0]!, file: 'a_b.dxf' }] } } }));
    await mount(app.store);
    expect(screen.getAllByTestId('set-file').map((row) => row.querySelector('td')!.textContent)).toEqual(['a b.dxf', 'a_b.dxf']);
    expect(screen.getByTestId('set-view').textContent).not.toContain('a_b-2.dxf');
  });

  it('a single dropped DXF opens as the drawing; several dropped files become a set', async () => {
    const app = setup();
    await mount(app.store);
    const view = screen.getByTestId('review-view');
    await act(async () => {
      fireEvent.drop(view, { dataTransfer: { files: [dxf('one.dxf')], items: [] } });
    });
    await waitFor(() => expect(app.calls.some((c) => c.channel === 'reviewOpenDxf')).toBe(true));
    expect(app.calls.some((c) => c.channel === 'reviewSetCreate')).toBe(false);
    await act(async () => {
      fireEvent.drop(view, { dataTransfer: { files: [dxf('x.dxf'), dxf('y.dxf')], items: [] } });
    });
    await waitFor(() => expect(app.calls.filter((c) => c.channel === 'reviewSetAddFile').map((c) => c.input.fileName)).toEqual(['x.dxf', 'y.dxf']));
  });

  it('speaks Simplified Chinese', async () => {
    const app = setup('zh-CN');
    app.finish();
    await mount(app.store);
    await act(async () => {
      await app.store.getState().selectSet(SET_ID);
    });
    expect(screen.getByTestId('review-sets').textContent).toContain('图纸集');
    expect(screen.getByTestId('set-status').textContent).toBe('已完成');
    expect(screen.getByText('跨图检查')).toBeTruthy();
    expect(screen.getByText('图号')).toBeTruthy();
  });
});

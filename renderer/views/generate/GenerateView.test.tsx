import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { AppBridge } from '../../../shared/ipc/channels';
import type { CadgenBuildResult } from '../../../shared/ipc/contracts/cadgen';
import type { Locale } from '../../i18n/messages';
import { createAppStore } from '../../store/appStore';
import { mountGenerateView } from './words/testBridge';

const id = (c: string) => c.repeat(64);
const result: CadgenBuildResult = {
  ok: false,
  documentName: 'flange',
  engineVersion: 'test',
  features: [
    { id: 'F1', atomic_id: 'extrude', status: 'built' },
    { id: 'F2', atomic_id: 'hole', status: 'built' },
  ],
  measurements: { solid_count: 1, volume_mm3: 116867.2467, area_mm2: 1, bbox: { min: [-60, -60, 0], max: [60, 60, 12] } },
  topology: { faces: 8, edges: 18 },
  claims: [
    { id: 'envelope', kind: 'bbox_dimension_mm', deterministic: true, status: 'pass', message: 'extent 12 × 120 × 120 mm', evidence: { measured_mm: [12, 120, 120] } },
    { id: 'volume', kind: 'volume_mm3', deterministic: true, status: 'fail', message: 'volume differs', evidence: { measured_mm3: 1 } },
    { id: 'looks', kind: 'visual', deterministic: false, status: 'pending', message: 'needs a reviewer', evidence: {} },
    { id: 'mystery', kind: 'mystery_kind', deterministic: true, status: 'unavailable', message: 'no verifier', evidence: {} },
  ],
  artifacts: { glb: id('a'), step: id('b'), measurements: id('c'), manifest: id('d'), glbBytes: 2048, views: (['front', 'top', 'left', 'iso'] as const).map((view, i) => ({ view, svg: id(String(i)), png: id(String(i + 4)) })), projectionMethod: 'first_angle' },
  timingsMs: { build: 10 },
};

const svgBase64 = btoa('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>');

function bridge(overrides: Record<string, (input: never) => Promise<Result<unknown>>> = {}): AppBridge {
  const ok = (value: unknown) => async () => ({ ok: true as const, value });
  return {
    cadgenListExamples: ok([{ name: 'flange', documentJson: '{"name":"flange"}', claimsJson: '{"claims":[]}', featureCount: 2, operations: ['extrude', 'hole'] }]),
    cadgenValidate: ok({ name: 'flange', features: [{ id: 'F1', atomic_id: 'extrude' }, { id: 'F2', atomic_id: 'hole' }], claimCount: 4 }),
    cadgenBuild: ok(result),
    cadgenGetArtifact: async (input: { id: string; kind: string }) => ({ ok: true, value: { id: input.id, kind: input.kind, mediaType: 'x', size: 1, base64: input.kind === 'svg' ? svgBase64 : btoa('glTF') } }),
    on: () => () => {},
    ...overrides,
  } as unknown as AppBridge;
}

async function renderView(b: AppBridge, locale: Locale = 'en') {
  const store = createAppStore(b, locale);
  // These tests cover the CDSL-document tab; "Describe a part" has its own tests (words/).
  store.getState().setGenTab('document');
  return mountGenerateView(store);
}

beforeEach(() => {
  // jsdom has no blob URLs; the view only needs distinct strings for its <img> elements.
  let next = 0;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => `blob:test/${next++}`, revokeObjectURL: () => {} }));
  // jsdom has no WebGL: silence its "not implemented" notice so the fallback under test is visible.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('Generate view, CDSL document tab', () => {
  it('opens an example, builds it and shows claims with badges, features, drawings and a WebGL notice', async () => {
    await renderView(bridge());
    // The document tab keeps the panel's width cap (only "Describe a part" lifts it).
    expect(screen.getByTestId('generate-view').classList.contains('cdsl-words')).toBe(false);
    await waitFor(() => expect(screen.getByTestId('cdsl-example').querySelectorAll('option')).toHaveLength(2));
    await act(async () => {
      fireEvent.change(screen.getByTestId('cdsl-example'), { target: { value: 'flange' } });
    });
    await waitFor(() => expect(screen.getByTestId('cdsl-valid').textContent).toBe('Valid: flange, 2 features'));
    await act(async () => {
      fireEvent.click(screen.getByTestId('cdsl-build'));
    });
    await waitFor(() => expect(screen.getByTestId('cdsl-build-status').getAttribute('data-ok')).toBe('false'));

    const statuses = ['envelope', 'volume', 'looks', 'mystery'].map((c) => screen.getByTestId(`cdsl-claim-${c}`).getAttribute('data-status'));
    expect(statuses).toEqual(['pass', 'fail', 'pending', 'unavailable']);
    expect(screen.getByTestId('cdsl-claims').textContent).toContain('1 pass · 1 fail · 1 pending · 1 unavailable');
    expect(screen.getByTestId('cdsl-summary').textContent).toContain('Size X × Y × Z: 120.000 × 120.000 × 12.000 mm');
    await waitFor(() => expect(screen.getByTestId('cdsl-no-webgl').textContent).toContain('WebGL is unavailable'));
    await waitFor(() => expect(screen.getByTestId('cdsl-drawing-iso').getAttribute('src')).toMatch(/^blob:/));
  });

  it('lists each validation issue with its JSON path and keeps Build disabled', async () => {
    const error = { code: 'CDSL_SCHEMA_INVALID', message: '1 issue(s) in the claims file', retryable: false, data: { source: 'claims', issues: [{ path: '/claims/0/expected', message: 'must be object' }] } };
    await renderView(bridge({ cadgenValidate: async () => ({ ok: false, error }) }), 'zh-CN');
    await waitFor(() => expect(screen.getByTestId('cdsl-example').querySelectorAll('option')).toHaveLength(2));
    await act(async () => {
      fireEvent.change(screen.getByTestId('cdsl-example'), { target: { value: 'flange' } });
    });
    const shown = await screen.findByTestId('cdsl-validation-error');
    expect(shown.getAttribute('data-code')).toBe('CDSL_SCHEMA_INVALID');
    expect(shown.textContent).toContain('声明文件无效');
    expect(screen.getByTestId('cdsl-issue').textContent).toContain('/claims/0/expected');
    expect((screen.getByTestId('cdsl-build') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a build that could not run as a typed error', async () => {
    const error = { code: 'CDSL_RUNTIME_CRASHED', message: 'the kernel worker stopped unexpectedly', retryable: true };
    await renderView(bridge({ cadgenBuild: async () => ({ ok: false, error }) }));
    await waitFor(() => expect(screen.getByTestId('cdsl-example').querySelectorAll('option')).toHaveLength(2));
    await act(async () => {
      fireEvent.change(screen.getByTestId('cdsl-example'), { target: { value: 'flange' } });
    });
    await screen.findByTestId('cdsl-valid');
    await act(async () => {
      fireEvent.click(screen.getByTestId('cdsl-build'));
    });
    expect((await screen.findByTestId('cdsl-build-error')).getAttribute('data-code')).toBe('CDSL_RUNTIME_CRASHED');
  });
});

import { describe, expect, it } from 'vitest';
import { renderReviewPng } from '../../adapters/artifacts/pngRenderer';
import type { GenerationDeps } from './deps';
import type { TaskSnapshot } from './ports';
import { REVIEW_IMAGE_TOKEN_BUDGET, REVIEW_MIN_LONG_EDGE, reviewRenders } from './reviewRenders';
import { reviewSubject } from './reviewSubject';

/** A square drawing: one visible (black) and one hidden (grey) path, as projectionSvg writes them. */
const view = (visible: string, hidden: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100mm" height="100mm"><rect x="0" y="0" width="100" height="100" fill="white"/>` +
  `<path d="${hidden}" stroke="#5f6670" stroke-width="1"/><path d="${visible}" stroke="black" stroke-width="1"/><desc>width 100</desc></svg>`;

function depsWith(files: Record<string, string>): GenerationDeps {
  return { artifacts: { readText: async (_task: string, p: string) => files[p] ?? null }, encoders: { reviewPng: renderReviewPng } } as unknown as GenerationDeps;
}

describe('reviewer render budget', () => {
  it('sends visible changes before hidden-only ones and drops what does not fit the image-token budget at the smallest legible size, naming it', async () => {
    const files: Record<string, string> = { 'p/view-iso-shaded.svg': view('M10 10L90 90', ''), 'c/view-iso-shaded.svg': view('M10 10L90 90', '') };
    for (const name of ['front', 'top', 'left', 'right']) {
      files[`p/view-${name}.svg`] = view('M10 10L90 10', 'M10 50L90 50');
      files[`c/view-${name}.svg`] = name === 'right' ? view('M10 20L90 20', 'M10 50L90 50') : view('M10 10L90 10', 'M10 60L90 60');
    }
    const { images, choice } = await reviewRenders(depsWith(files), 'task_x', 'c', { dir: 'p', revisionId: 'rev_001' }, 'first');
    expect(choice.sent.map((s) => s.view)).toEqual(['iso-shaded', 'right', 'front', 'top']);
    expect(choice.sent[1]?.why).toBe('visible edges or callouts changed against rev_001');
    expect(choice.sent[2]?.why).toBe('only hidden edges changed against rev_001');
    expect(choice.omitted).toEqual([{ view: 'left', why: `only hidden edges changed against rev_001, but over the ${REVIEW_IMAGE_TOKEN_BUDGET}-token image budget at ${REVIEW_MIN_LONG_EDGE} px` }]);
    expect(images).toHaveLength(4);
    expect(Math.max(choice.tokens.openai, choice.tokens.anthropic)).toBeLessThanOrEqual(REVIEW_IMAGE_TOKEN_BUDGET);
    for (const s of choice.sent.slice(1)) expect(Math.max(s.width, s.height)).toBeGreaterThanOrEqual(REVIEW_MIN_LONG_EDGE);
  });

  it('falls back to the hidden-line isometric view for a revision built before the shaded view existed, and says so', async () => {
    const files = { 'c/view-iso.svg': view('M10 10L90 90', 'M10 50L90 50') };
    const { choice } = await reviewRenders(depsWith(files), 'task_x', 'c', null, 'final review');
    expect(choice.sent.map((s) => [s.view, s.why])).toEqual([['iso', 'this revision has no shaded view; the hidden-line isometric view instead']]);
    expect(choice.sent[0]?.width).toBe(1024);
  });
});

describe('reviewer render sizes against the tile rule', () => {
  const wide = (w: number, h: number): string => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}mm" height="${h}mm"><rect x="0" y="0" width="${w}" height="${h}" fill="white"/><path d="M1 1L${w - 1} ${h - 1}" stroke="black" stroke-width="1"/></svg>`;

  it('shrinks a view whose short side just passes a 512 px tile onto the tile boundary (1024 × 589 → two tiles, not four)', async () => {
    const { choice } = await reviewRenders(depsWith({ 'c/view-iso-shaded.svg': wide(1024, 589) }), 'task_x', 'c', null, 'final review');
    const [iso] = choice.sent;
    expect(iso?.height).toBeLessThanOrEqual(512);
    expect(iso?.width).toBeGreaterThanOrEqual(880);
    expect(iso?.tokens.openai).toBe(85 + 2 * 170);
  });

  it('keeps a view that a shrink of at most a fifth cannot bring onto a tile boundary at its full size', async () => {
    const { choice } = await reviewRenders(depsWith({ 'c/view-iso-shaded.svg': wide(1024, 700) }), 'task_x', 'c', null, 'final review');
    expect([choice.sent[0]?.width, choice.sent[0]?.height]).toEqual([1024, 700]);
  });
});

describe('what a candidate review is shown', () => {
  it('compares the candidate with the revision its base head names, so views unchanged since then are left out', async () => {
    const head = 'head_0001_rev_001';
    const files: Record<string, string> = { 'revisions/rev_002/view-iso-shaded.svg': view('M10 10L90 90', '') };
    for (const name of ['front', 'top']) {
      files[`revisions/rev_001/view-${name}.svg`] = view('M10 10L90 10', '');
      files[`revisions/rev_002/view-${name}.svg`] = name === 'top' ? view('M10 10L90 10M50 50L60 60', '') : view('M10 10L90 10', '');
    }
    const deps = { ...depsWith(files), artifacts: { readText: async (_t: string, p: string) => files[p] ?? null, writeStep: async () => undefined } } as unknown as GenerationDeps;
    const snapshot = {
      task: { task_id: 'task_x', state: 'CANDIDATE_REVIEW', working_head: head, head_revision: 'rev_001' },
      revisions: [{ revision_id: 'rev_001', dir: 'revisions/rev_001' }],
      candidates: [{ candidate_id: 'cand_1', status: 'built', base_head: head, revision_id: 'rev_002', report_json: '{"claims":[]}', document_json: '{"features":[{"id":"F1"},{"id":"F2"}]}' }],
      pending: null,
    } as unknown as TaskSnapshot;
    const { renders } = await reviewSubject(snapshot, deps);
    expect(renders?.sent.map((s) => [s.view, s.why])).toEqual([['iso-shaded', 'the whole part at a glance, shaded with visible edges'], ['top', 'visible edges or callouts changed against rev_001']]);
    expect(renders?.omitted).toContainEqual({ view: 'front', why: 'unchanged against rev_001' });
  });
});

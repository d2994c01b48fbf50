import { describe, expect, it } from 'vitest';
import { renderReviewPng } from '../../adapters/artifacts/pngRenderer';
import type { GenerationDeps } from './deps';
import { REVIEW_IMAGE_TOKEN_BUDGET, REVIEW_MIN_LONG_EDGE, reviewRenders } from './reviewRenders';

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

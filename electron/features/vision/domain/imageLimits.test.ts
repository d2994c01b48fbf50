import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageLimitsFor, MAX_TILES, MIN_SHORT_EDGE, planImage, tileLabel, type ImageLimits } from './imageLimits';

const openai = imageLimitsFor({ protocol: 'openai-responses', id: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1' }, 1280);
const anthropic = imageLimitsFor({ protocol: 'anthropic-messages', id: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude' }, 1280);
const qwen = imageLimitsFor({ protocol: 'chat-completions', id: 'qwen', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', model: 'qwen-vl-max' }, 1280);
const generic = imageLimitsFor({ protocol: 'chat-completions', id: 'chat', baseUrl: 'http://127.0.0.1:8000/v1', model: 'llava' }, 1280);

/** Every image the model receives for a plan. */
const sentSizes = (plan: ReturnType<typeof planImage>) => (plan.kind === 'tiles' ? plan.tiles : [plan]);

describe('provider image limits', () => {
  it('picks the profile from the protocol, and Qwen-VL from its id, DashScope URL or model name', () => {
    expect([openai.profile, anthropic.profile, qwen.profile, generic.profile]).toEqual(['openai', 'anthropic', 'qwen-vl', 'generic']);
    expect(imageLimitsFor({ protocol: 'chat-completions', id: 'my-vllm', baseUrl: 'http://gpu:8000/v1', model: 'Qwen2.5-VL-7B-Instruct' }, 1280).profile).toBe('qwen-vl');
    expect(generic.maxLongEdge).toBe(1280);
  });

  it('resizes a 4000×3000 drawing to what each provider really looks at', () => {
    expect(planImage(4000, 3000, openai)).toEqual({ kind: 'resize', width: 1024, height: 768 });
    const claude = planImage(4000, 3000, anthropic);
    expect(claude.width * claude.height).toBeLessThanOrEqual(1_150_000 + 2000);
    expect(claude.width).toBeLessThanOrEqual(1568);
    const q = planImage(4000, 3000, qwen);
    expect([q.width % 28, q.height % 28]).toEqual([0, 0]);
    expect(q.width * q.height).toBeLessThanOrEqual(1280 * 28 * 28);
    expect(planImage(4000, 3000, generic)).toEqual({ kind: 'resize', width: 1280, height: 960 });
  });

  it('keeps images inside the budget untouched, on the Qwen grid or not', () => {
    expect(planImage(1000, 750, generic)).toEqual({ kind: 'keep', width: 1000, height: 750 });
    expect(planImage(1001, 751, qwen).kind).toBe('keep');
  });

  it('tiles a 6000×200 screenshot at full resolution instead of shrinking it to 43 px', () => {
    const plan = planImage(6000, 200, generic);
    expect(plan.kind).toBe('tiles');
    if (plan.kind !== 'tiles') return;
    expect(plan.tiles).toHaveLength(5);
    expect(plan.tiles.every((t) => t.height === 200 && t.width <= 1280)).toBe(true);
    expect(plan.tiles[0]!.source.left).toBe(0);
    expect(plan.tiles.at(-1)!.source.left + plan.tiles.at(-1)!.source.width).toBe(6000);
    expect(tileLabel(1, 5, plan.tiles[1]!.source, { width: 6000, height: 200 })).toMatch(/^tile 2 of 5, left to right, x \d+–\d+ of 6000 px$/);
  });

  it('tiles tall images top to bottom', () => {
    const plan = planImage(300, 9000, anthropic);
    expect(plan.kind).toBe('tiles');
    if (plan.kind !== 'tiles') return;
    expect(plan.tiles.every((t) => t.width === 300 && t.height <= 1568)).toBe(true);
    expect(tileLabel(0, plan.tiles.length, plan.tiles[0]!.source, { width: 300, height: 9000 })).toContain('top to bottom');
  });

  const limitsArb = fc.constantFrom<ImageLimits>(openai, anthropic, qwen, generic);
  const sizeArb = fc.tuple(fc.integer({ min: 1, max: 40_000 }), fc.integer({ min: 1, max: 40_000 })).filter(([w, h]) => w * h <= 40_000_000);

  it('never sends an image over the provider budget (property)', () => {
    fc.assert(
      fc.property(sizeArb, limitsArb, ([w, h], limits) => {
        const plan = planImage(w, h, limits);
        if (plan.kind === 'keep') return;
        for (const size of sentSizes(plan)) {
          expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(limits.maxLongEdge);
          expect(size.width * size.height).toBeLessThanOrEqual(limits.maxPixels * 1.01 + 2 * Math.max(size.width, size.height));
          if (limits.patch > 1) expect([size.width % limits.patch, size.height % limits.patch]).toEqual([0, 0]);
        }
      }),
    );
  });

  it('keeps the short edge at the legibility floor unless the strip needs more than MAX_TILES tiles (property)', () => {
    fc.assert(
      fc.property(sizeArb, limitsArb, ([w, h], limits) => {
        const plan = planImage(w, h, limits);
        const floor = Math.min(w, h, MIN_SHORT_EDGE);
        const short = Math.min(plan.width, plan.height);
        if (plan.kind === 'tiles' && plan.belowFloor) {
          expect(plan.tiles.length).toBeGreaterThanOrEqual(MAX_TILES - 1);
          return;
        }
        expect(short).toBeGreaterThanOrEqual(Math.min(floor, limits.patch > 1 ? Math.floor(floor / limits.patch) * limits.patch || limits.patch : floor) - 1);
      }),
    );
  });

  it('covers the whole image with ordered, overlapping tiles (property)', () => {
    fc.assert(
      fc.property(sizeArb, limitsArb, ([w, h], limits) => {
        const plan = planImage(w, h, limits);
        if (plan.kind !== 'tiles') return;
        expect(plan.tiles.length).toBeLessThanOrEqual(MAX_TILES);
        const wide = w >= h;
        const spans = plan.tiles.map((t) => (wide ? [t.source.left, t.source.left + t.source.width] : [t.source.top, t.source.top + t.source.height]) as [number, number]);
        expect(spans[0]![0]).toBe(0);
        expect(spans.at(-1)![1]).toBe(wide ? w : h);
        for (let i = 1; i < spans.length; i++) {
          expect(spans[i]![0]).toBeGreaterThan(spans[i - 1]![0]);
          expect(spans[i]![0]).toBeLessThan(spans[i - 1]![1]);
        }
      }),
    );
  });
});

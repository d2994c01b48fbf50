import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textPath, textWidth } from './drawingLettering';
import { distinctHidden, drawingLanguageOf, formatMm, projectionSvg } from './drawingSvg';
import { VIEW_CAMERAS, viewsFor } from './drawingViews';
import type { TopologySnapshot } from './topology';
import { cross, dot } from './vec3';
import { plateWithBores } from './verifiers/topology.testSupport';

const box: TopologySnapshot = { snapshot_id: '0'.repeat(64), faces: [], edges: [], features: [], measurements: { solid_count: 1, volume_mm3: 1, area_mm2: 1, bbox: { min: [-20, -15, 0], max: [20, 15, 10] } } };

describe('drawing views', () => {
  it('use right-handed cameras whose up axis is toward_viewer × x_axis', () => {
    for (const camera of Object.values(VIEW_CAMERAS)) {
      const up = cross(camera.toward_viewer, camera.x_axis);
      expect(up.map((v, i) => v - (camera.y_axis[i] as number)).every((d) => Math.abs(d) < 1e-12)).toBe(true);
      expect(Math.abs(dot(camera.x_axis, camera.toward_viewer))).toBeLessThan(1e-12);
    }
  });

  it('place the left view with first angle and the right view with third angle', () => {
    expect(viewsFor('first_angle')).toEqual(['front', 'top', 'left', 'iso']);
    expect(viewsFor('third_angle')).toEqual(['front', 'top', 'right', 'iso']);
  });

  it('dimension each orthographic view with the measured extents along its own axes', () => {
    const desc = (view: 'front' | 'top' | 'left') => /<desc>(.*)<\/desc>/.exec(projectionSvg({ view: { view, visible: [], hidden: [] }, method: 'first_angle', snapshot: box }))?.[1];
    expect(desc('front')).toBe('width 40; height 10');
    expect(desc('top')).toBe('width 40; height 30');
    expect(desc('left')).toBe('width 30; height 10');
  });

  it('label a zh-CN drawing in Chinese set in a CJK font, with no English word left in what it shows or describes', () => {
    const drawn = (lang: 'en' | 'zh-CN', view: 'front' | 'top' | 'left' | 'iso', blind: boolean): string => projectionSvg({ view: { view, visible: [], hidden: [] }, method: 'first_angle', snapshot: plateWithBores([[-20, 0], [20, 0]], blind), lang });
    const top = drawn('zh-CN', 'top', false);
    expect(top).toContain('<title>俯视图（自 +Z 向）</title>');
    expect(top).toMatch(/<text [^>]*font-family="'Noto Sans CJK SC'[^>]*>2×Ø10 通孔<\/text>/);
    expect(drawn('zh-CN', 'top', true)).toMatch(/>Ø10 深 \d+<\/text>/);
    expect(drawn('zh-CN', 'front', false)).toContain('>主视图 · 自 −Y 向</text>');
    expect(drawn('zh-CN', 'left', false)).toContain('>第一角投影 · 单位 mm</text>');
    expect(drawn('zh-CN', 'iso', false)).toContain('>轴测图 · 自 +X −Y +Z 向</text>');
    for (const view of ['front', 'top', 'left', 'iso'] as const) {
      for (const blind of [false, true]) {
        const svg = drawn('zh-CN', view, blind);
        // Everything a reader sees or is told: the typeset labels, the title and the description.
        const words = [...svg.matchAll(/<(text|title|desc)[^>]*>([^<]*)</g)].map((m) => m[2]).join(' ');
        expect(words.match(/[A-Za-z]{2,}/g)?.filter((w) => w !== 'mm') ?? [], `${view} ${String(blind)}`).toEqual([]);
        // The English drawing stays all single-stroke lettering (its PNG needs no font).
        expect(drawn('en', view, blind)).not.toContain('<text');
      }
    }
  });

  it('take a task’s drawing language from its request: Chinese when it is written with Han characters', () => {
    expect(drawingLanguageOf('法兰，外径 120 mm，厚 12 mm，4×Ø10 通孔')).toBe('zh-CN');
    expect(drawingLanguageOf('flange OD 120 mm, 12 mm thick, 4×Ø10 through holes on PCD 90')).toBe('en');
  });

  it('drop hidden segments that repeat another hidden or a visible segment in either direction', () => {
    expect(distinctHidden(['M 5 0 L 5 -12', 'M 5 -12 L 5 0', 'M 1 1 L 2 2', 'M 9 9 A 1 1 0 0 1 3 3'], ['M 2 2 L 1 1'])).toEqual(['M 5 0 L 5 -12', 'M 9 9 A 1 1 0 0 1 3 3']);
  });

  it('format dimension numbers with at most two decimals and no trailing zeros', () => {
    expect([40, 12.5, 33.3333, 0.004].map(formatMm)).toEqual(['40', '12.5', '33.33', '0']);
  });

  it('letter every character a drawing uses with its own strokes, lower case as capitals', () => {
    const fallback = textPath('?', 0, 0, 6);
    for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,×Ø()+-−·:/=') expect(textPath(char, 0, 0, 6), char).not.toBe(fallback);
    expect(textPath('#', 0, 0, 6)).toBe(fallback);
    expect(textPath('from', 0, 0, 6)).toBe(textPath('FROM', 0, 0, 6));
  });

  it('size and anchor text proportionally to its height', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9 ]{1,20}$/), fc.double({ min: 0.5, max: 50, noNaN: true }), (text, height) => {
        expect(textWidth(text, height)).toBeCloseTo((text.length * 6 - 2) * (height / 6), 9);
        const xs = (d: string) => [...d.matchAll(/[ML](-?[\d.]+) /g)].map((m) => Number(m[1]));
        const ended = xs(textPath(text, 100, 0, height, 'end'));
        if (ended.length > 0) expect(Math.max(...ended)).toBeLessThanOrEqual(100 + 1e-3);
      }),
    );
  });
});

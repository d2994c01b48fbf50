import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textPath, textWidth } from './drawingLettering';
import { distinctHidden, formatMm, projectionSvg } from './drawingSvg';
import { VIEW_CAMERAS, viewsFor } from './drawingViews';
import type { TopologySnapshot } from './topology';
import { cross, dot } from './vec3';

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

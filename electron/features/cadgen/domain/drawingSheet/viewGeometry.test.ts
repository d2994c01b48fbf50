import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { viewEntities } from './viewGeometry';

describe('view geometry from projected SVG paths', () => {
  it('reads a concave fillet arc as the 90° quarter it is, not the 270° rest of the circle', () => {
    // The L-bracket's inner fillet as replicad projects it (SVG y down).
    const arcs = viewEntities(['M 60 -8 L 13 -8 A 5 5 0 0 1 8 -13 L 8 -50'], []).filter((e) => e.kind === 'arc');
    expect(arcs).toHaveLength(1);
    const fillet = arcs[0]!;
    expect(fillet.center.x).toBeCloseTo(13, 9);
    expect(fillet.center.y).toBeCloseTo(13, 9);
    expect(fillet.endDeg - fillet.startDeg).toBeCloseTo(90, 9);
    expect(((fillet.startDeg % 360) + 360) % 360).toBeCloseTo(180, 9);
  });

  it('joins two half arcs into a circle and drops a hidden circle under a visible one', () => {
    const circle = 'M -60 0 A 60 60 0 0 1 60 0 A 60 60 0 0 1 -60 0 Z';
    const entities = viewEntities([circle], [circle]);
    expect(entities).toHaveLength(1);
    expect(entities[0]).toMatchObject({ kind: 'circle', layer: '粗实线', radius: 60 });
    if (entities[0]?.kind === 'circle') expect(Math.hypot(entities[0].center.x, entities[0].center.y)).toBeLessThan(1e-9);
  });

  it('merges a sampled edge seen edge-on into one line and drops hidden lines the visible pieces cover', () => {
    // One edge split over two paths (not joined end to start), the left one sampled in two steps.
    const visible = ['M 0 0 L 60 0', 'M -60 0 L -30 0 L 0 0'];
    const entities = viewEntities(visible, ['M 60 0 L -60 0', 'M 0 -5 L 0 5']);
    expect(entities.filter((e) => e.layer === '粗实线')).toHaveLength(2);
    const hidden = entities.filter((e) => e.layer === '虚线');
    expect(hidden).toHaveLength(1);
    expect(hidden[0]).toMatchObject({ kind: 'line', from: { y: 5 }, to: { y: -5 } });
  });

  it('puts every arc on its circle: both ends lie at the radius from the centre, whatever the flags', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 100, noNaN: true }), fc.double({ min: 0.1, max: 3.1, noNaN: true }), fc.boolean(), (r, angle, sweep) => {
        const [x0, y0, x1, y1] = [r, 0, r * Math.cos(angle), -r * Math.sin(angle)];
        const [e] = viewEntities([`M ${x0} ${y0} A ${r} ${r} 0 0 ${sweep ? 1 : 0} ${x1} ${y1}`], []);
        if (e?.kind !== 'arc') return false;
        const end = (deg: number): [number, number] => [e.center.x + e.radius * Math.cos((deg * Math.PI) / 180), e.center.y + e.radius * Math.sin((deg * Math.PI) / 180)];
        const ends = [end(e.startDeg), end(e.endDeg)];
        const want: [number, number][] = [
          [x0, -y0],
          [x1, -y1],
        ];
        return want.every(([wx, wy]) => ends.some(([ex, ey]) => Math.hypot(ex - wx, ey - wy) < 1e-6 * r)) && e.endDeg - e.startDeg > 0 && e.endDeg - e.startDeg < 180;
      }),
    );
  });
});

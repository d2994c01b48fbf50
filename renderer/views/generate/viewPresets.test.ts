import { describe, expect, it } from 'vitest';
import { framingDistance, VIEW_DIRECTIONS, VIEW_NAMES, type Vec3 } from './viewPresets';

const box: Vec3[] = [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].map((z) => [x * 50, y * 20, z * 10] as Vec3)));

describe('standard views of the 3D viewer', () => {
  it('looks from the front (−Y), the top (+Z), the right (+X) and the isometric corner (+X −Y +Z), Z up', () => {
    expect(VIEW_DIRECTIONS.front).toEqual([0, -1, 0]);
    expect(VIEW_DIRECTIONS.right).toEqual([1, 0, 0]);
    expect(VIEW_DIRECTIONS.top[2]).toBeCloseTo(1, 6);
    // The top view leans to −Y so the screen shows +Y up instead of an undefined roll.
    expect(VIEW_DIRECTIONS.top[1]).toBeLessThan(0);
    const [x, y, z] = VIEW_DIRECTIONS.iso;
    expect(x).toBeGreaterThan(0);
    expect(y).toBeLessThan(0);
    expect(z).toBeGreaterThan(0);
    for (const name of VIEW_NAMES) expect(Math.hypot(...VIEW_DIRECTIONS[name])).toBeCloseTo(1, 12);
  });

  it('backs off far enough to frame the part: a long part seen from the front needs more room than from the right', () => {
    const front = framingDistance(box, VIEW_DIRECTIONS.front, 35, 1);
    const right = framingDistance(box, VIEW_DIRECTIONS.right, 35, 1);
    expect(front).toBeGreaterThan(right);
    // From the front the 100 mm width must fit the horizontal field of view.
    const tan = Math.tan((35 * Math.PI) / 360);
    expect(front).toBeGreaterThanOrEqual(20 + 50 / tan - 1e-9);
  });

  it('needs less distance for a wider window when the part is wide', () => {
    expect(framingDistance(box, VIEW_DIRECTIONS.front, 35, 2)).toBeLessThan(framingDistance(box, VIEW_DIRECTIONS.front, 35, 1));
  });
});

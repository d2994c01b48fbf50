import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compose, insertTransform, rotationOf, type Affine } from './geometry';
import { mtextFrame, textGenerationFrame, transformTextFrame, type TextFrame } from './textFrame';

const close = (a: number, b: number): boolean => Math.abs(((((a - b) % 360) + 540) % 360) - 180) < 1e-6;

describe('text frames', () => {
  it('reads the TEXT generation flags: backward reverses the baseline, upside down the up direction, both turn it half round', () => {
    expect(textGenerationFrame(0, 0, 1, 1)).toEqual({ rotation: 0, mirrored: false, widthFactor: 1 });
    expect(textGenerationFrame(0, 2, 1, 1)).toEqual({ rotation: 180, mirrored: true, widthFactor: 1 });
    expect(textGenerationFrame(30, 4, 1, 1)).toEqual({ rotation: 30, mirrored: true, widthFactor: 1 });
    expect(textGenerationFrame(30, 6, 1, 0.8)).toEqual({ rotation: 210, mirrored: false, widthFactor: 0.8 });
  });

  it('mirrors the OCS x axis of a TEXT or an OCS-rotated MTEXT with a negative extrusion, keeping a rotation-free text as written', () => {
    expect(textGenerationFrame(30, 0, -1, 1)).toEqual({ rotation: 150, mirrored: true, widthFactor: 1 });
    expect(textGenerationFrame(-90, 0, 1, 1)).toEqual({ rotation: -90, mirrored: false, widthFactor: 1 });
    expect(mtextFrame(30, false, -1)).toEqual({ rotation: 150, mirrored: true, widthFactor: 1 });
    expect(mtextFrame(180, true, -1)).toEqual({ rotation: 180, mirrored: true, widthFactor: 1 });
    expect(mtextFrame(45, true, 1)).toEqual({ rotation: 45, mirrored: false, widthFactor: 1 });
  });

  it('draws text inside an insert with a negative X scale mirrored, and a non-uniform scale as a width factor', () => {
    const mirrorX = insertTransform({ x: 100, y: 0 }, -1, 1, 0, { x: 0, y: 0 });
    const mirrored = transformTextFrame({ rotation: 0, mirrored: false, widthFactor: 1 }, mirrorX);
    expect(mirrored).toMatchObject({ frame: { mirrored: true, widthFactor: 1 }, heightScale: 1 });
    expect(close(mirrored.frame.rotation, 180)).toBe(true);
    const wide = insertTransform({ x: 0, y: 0 }, 3, 1.5, 90, { x: 0, y: 0 });
    const moved = transformTextFrame({ rotation: 0, mirrored: false, widthFactor: 1 }, wide);
    expect(moved.frame.rotation).toBeCloseTo(90);
    expect(moved.frame.widthFactor).toBeCloseTo(2);
    expect(moved.heightScale).toBeCloseTo(1.5);
  });

  it('keeps the rotation values of plain rotated and uniformly scaled inserts: the text angle plus the insert turn', () => {
    fc.assert(fc.property(fc.double({ min: -720, max: 720, noNaN: true }), fc.double({ min: -720, max: 720, noNaN: true }), fc.double({ min: 0.01, max: 100, noNaN: true }), (text, insert, scale) => {
      const m = insertTransform({ x: 5, y: 7 }, scale, scale, insert, { x: 0, y: 0 });
      const { frame, heightScale } = transformTextFrame({ rotation: text, mirrored: false, widthFactor: 1 }, m);
      expect(close(frame.rotation, text + insert)).toBe(true);
      expect(frame.rotation).toBeCloseTo(text + rotationOf(m), 6);
      expect(frame.mirrored).toBe(false);
      expect(heightScale).toBeCloseTo(scale, 6);
    }));
  });

  it('gives back the same frame after mirroring twice, whatever the frame and the mirror axis', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 359, noNaN: true }), fc.boolean(), fc.double({ min: 0.2, max: 5, noNaN: true }), fc.double({ min: 0, max: 180, noNaN: true }), (rotation, mirrored, widthFactor, axisDeg) => {
      const a = (axisDeg * Math.PI) / 90; // reflection across a line at axisDeg: [cos 2θ, sin 2θ; sin 2θ, −cos 2θ]
      const reflect: Affine = [Math.cos(a), Math.sin(a), Math.sin(a), -Math.cos(a), 0, 0];
      const start: TextFrame = { rotation, mirrored, widthFactor };
      const once = transformTextFrame(start, reflect);
      expect(once.frame.mirrored).toBe(!mirrored);
      const twice = transformTextFrame(once.frame, reflect);
      expect(twice.frame.mirrored).toBe(mirrored);
      expect(close(twice.frame.rotation, rotation)).toBe(true);
      expect(twice.frame.widthFactor).toBeCloseTo(widthFactor, 9);
      expect(transformTextFrame(start, compose(reflect, reflect)).frame.mirrored).toBe(mirrored);
    }));
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDxfBytes } from '../adapters/file/openDxfFile';
import { displayRound, measureDimension } from './measuredDimensions';
import { ezdxfPython } from '../../../testSupport/prereqs';

const repoRoot = path.resolve(__dirname, '../../../..');
const generator = path.join(repoRoot, 'electron/testSupport/fixtures/dxf/generate_dims_without_measurement.py');
const corpusDir = path.resolve(repoRoot, '../shared/corpus/dxf');
const python = ezdxfPython('measuredDimensions ezdxf-written drawing');

function dimensionsOf(file: string) {
  const doc = parseDxfBytes(readFileSync(file), file).document;
  return doc.layouts.flatMap((l) => l.entities).filter((e) => e.type === 'DIMENSION').map((e) => ({ entity: e, measured: measureDimension(doc, e)! }));
}

describe('measured dimensions', () => {
  it.skipIf(!python)('measures every kind from the definition points of a drawing written without group 42, with DIMLFAC, DIMDEC and DIMRND', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dims-')), 'dims.dxf');
    const expected = JSON.parse(execFileSync(python!, [generator, file], { encoding: 'utf8' })) as Record<string, { kind: string; measured: number }>;
    const dims = dimensionsOf(file);
    expect(dims).toHaveLength(Object.keys(expected).length);
    for (const { entity, measured } of dims) {
      const want = expected[entity.handle]!;
      expect(entity.geometry.kind === 'dimension' && entity.geometry.measurement, entity.handle).toBeNull();
      expect(measured.kind, entity.handle).toBe(want.kind);
      expect(measured.measured!, `${entity.handle} ${want.kind}`).toBeCloseTo(want.measured, 6);
    }
    const scaled = dims.filter((d) => d.measured.linearFactor === 2);
    expect(scaled).toHaveLength(2);
    expect(scaled[0]!.measured).toMatchObject({ decimals: 1, roundTo: 0.5, displayValue: 50 });
  });

  it('rounds to the DIMRND step, then to DIMDEC places', () => {
    expect(displayRound(49.8, 1, 0.5)).toBe(50);
    expect(displayRound(12.345, 2, 0)).toBe(12.35);
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 6 }), (value, decimals) => {
        const shown = displayRound(value, decimals, 0);
        expect(Math.abs(shown - value)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9 * Math.max(1, Math.abs(value)));
      }),
    );
  });

  const corpus = existsSync(corpusDir) ? readdirSync(corpusDir).filter((f) => f.toLowerCase().endsWith('.dxf')) : [];
  if (corpus.length === 0) console.warn(`measuredDimensions: ${corpusDir} is absent; the corpus check is skipped`);
  it.skipIf(corpus.length === 0)('agrees with the stored measurement of corpus drawings from other programs wherever they store one', () => {
    let compared = 0;
    for (const name of corpus) {
      let dims;
      try {
        dims = dimensionsOf(path.join(corpusDir, name));
      } catch {
        continue; // unreadable files are the reader's tests' business
      }
      for (const { entity, measured } of dims) {
        const g = entity.geometry;
        if (g.kind !== 'dimension' || g.measurement === null || g.measurement < 0 || measured.measured === null || measured.kind === 'ordinate') continue;
        const stored = measured.kind.startsWith('angular') ? (g.measurement * 180) / Math.PI : g.measurement;
        compared++;
        expect(measured.measured, `${name} ${entity.handle} ${measured.kind}`).toBeCloseTo(stored, 3);
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPathInside, pathComponents } from './pathContainment';

const segment = fc.stringMatching(/^[a-zA-Z0-9_ .-]{1,10}$/).filter((s) => s !== '.' && s !== '..');

describe('isPathInside', () => {
  it('accepts every path built below the root', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.array(segment, { maxLength: 4 }), (root, below) => {
        const rootPath = `/${root.join('/')}`;
        expect(isPathInside(rootPath, `${rootPath}/${below.join('/')}`, 'posix')).toBe(true);
      }),
    );
  });

  it('refuses siblings that merely share a prefix', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), segment, (root, suffix) => {
        const rootPath = `/${root.join('/')}`;
        expect(isPathInside(rootPath, `${rootPath}${suffix.startsWith('.') ? 'x' : ''}${suffix}/a.png`, 'posix')).toBe(false);
      }),
    );
  });

  it('applies ".." before comparing, so climbing out is refused', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), segment, (root, other) => {
        const rootPath = `/${root.join('/')}`;
        const escape = `${rootPath}/${'../'.repeat(root.length)}${other}-outside/a.png`;
        expect(isPathInside(rootPath, escape, 'posix')).toBe(false);
      }),
    );
  });

  it('compares Windows paths case-insensitively with either separator', () => {
    expect(isPathInside('C:\\Drawings', 'c:/drawings/Sheet1.PNG', 'windows')).toBe(true);
    expect(isPathInside('C:\\Drawings', 'C:\\Drawings-old\\a.png', 'windows')).toBe(false);
    expect(isPathInside('/data', '/Data/a.png', 'posix')).toBe(false);
    expect(pathComponents('/a/./b/../c', 'posix')).toEqual(['', 'a', 'c']);
  });
});

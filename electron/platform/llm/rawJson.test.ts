import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rawJsonValueAt } from './rawJson';

/** Serializes with random whitespace around every token, so raw text differs from JSON.stringify. */
function looseStringify(value: unknown, ws: () => string): string {
  if (Array.isArray(value)) return `[${ws()}${value.map((v) => looseStringify(v, ws)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${ws()}:${ws()}${looseStringify(v, ws)}`);
    return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(value);
}

describe('raw JSON value slicing', () => {
  it('returns the exact source text of a nested value for any formatting', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.constantFrom('', ' ', '\n', '\t  ', '\r\n'), { minLength: 1 }), (input, spaces) => {
        let i = 0;
        const ws = (): string => spaces[i++ % spaces.length]!;
        const inner = looseStringify(input, ws);
        const doc = `{${ws()}"content"${ws()}:${ws()}[${ws()}{"type":"text","text":"a \\" ] }"}${ws()},${ws()}{"type":"tool_use","input":${ws()}${inner}${ws()}}]}`;
        const raw = rawJsonValueAt(doc, ['content', 1, 'input']);
        expect(raw).toBe(inner);
        expect(JSON.parse(raw!)).toEqual(JSON.parse(JSON.stringify(input)));
      }),
    );
  });

  it('answers undefined for a path that does not exist', () => {
    expect(rawJsonValueAt('{"a":[1,2]}', ['a', 2])).toBeUndefined();
    expect(rawJsonValueAt('{"a":[1,2]}', ['b'])).toBeUndefined();
    expect(rawJsonValueAt('{"a":[]}', ['a', 0])).toBeUndefined();
    expect(rawJsonValueAt('{"a":1}', ['a', 0])).toBeUndefined();
  });

  it('takes the last of duplicate keys, as JSON.parse does', () => {
    expect(rawJsonValueAt('{"k": 1, "k":  {"z":2, "a":1}}', ['k'])).toBe('{"z":2, "a":1}');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestIdFromHead } from './lineStdioTransport';

describe('request id of an oversized line', () => {
  it('reads a top-level id written before params, whatever the params hold', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string()), fc.jsonValue(), (id, params) => {
        const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":${JSON.stringify(params)}}`;
        expect(requestIdFromHead(line.slice(0, 1024))).toBe(id);
      }),
    );
  });

  it('never takes an "id" nested in params, and gives null when the id is not in the head', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (inner) => {
        const line = `{"jsonrpc":"2.0","method":"tools/call","params":{"id":7,"arguments":${JSON.stringify(inner)}}}`;
        const id = requestIdFromHead(line.slice(0, 1024));
        expect(id).toBeNull();
      }),
    );
    expect(requestIdFromHead('{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"data":"AAAA')).toBeNull();
  });
});

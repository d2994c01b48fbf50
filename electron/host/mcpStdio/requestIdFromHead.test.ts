import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestIdFromHead, requestIdFromTail } from './lineStdioTransport';

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

  it('reads the id the official SDK writes last, from the line’s last characters, whatever the params hold', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string()), fc.jsonValue(), fc.nat({ max: 2000 }), (id, params, keep) => {
        // The SDK's Client serialises {...request, jsonrpc, id}: method, params, jsonrpc, id.
        const line = JSON.stringify({ method: 'tools/call', params, jsonrpc: '2.0', id });
        const idPart = `,"id":${JSON.stringify(id)}}`;
        fc.pre(keep >= idPart.length);
        expect(requestIdFromTail(line.slice(-keep))).toBe(id);
      }),
    );
  });

  it('never takes an "id" that is not the top-level object’s last member (nested, inside a string, or cut off)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.oneof(fc.integer(), fc.string()), (inner, id) => {
        const nested = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { arguments: inner, id } });
        expect(requestIdFromTail(nested)).toBeNull();
        const inString = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { text: `,"id":${JSON.stringify(id)}}` } });
        expect(requestIdFromTail(inString)).toBeNull();
      }),
    );
    expect(requestIdFromTail('AAAA"}},"jsonrpc":"2.0","id":')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyJsonRpcValue, idKey, JSON_RPC_ERROR, makeFailure, makeRequest, makeSuccess, parseJsonRpcLine } from './jsonRpc';
import { parseToolResult, parseToolsList } from './mcpTools';

const idArb = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));

describe('jsonRpc', () => {
  it('keeps the id of requests and responses by type and value through a JSON round trip', () => {
    fc.assert(
      fc.property(idArb, fc.string({ minLength: 1 }), (id, method) => {
        const request = parseJsonRpcLine(JSON.stringify(makeRequest(id, method, {})));
        expect(request.kind).toBe('request');
        if (request.kind === 'request') expect(Object.is(request.message.id, JSON.parse(JSON.stringify(id)))).toBe(true);
        const response = parseJsonRpcLine(JSON.stringify(makeSuccess(id, null)));
        expect(response.kind).toBe('response');
        if (response.kind === 'response') expect(typeof response.message.id).toBe(typeof id);
      }),
    );
  });

  it('gives "1" and 1 different keys', () => {
    expect(idKey('1')).not.toBe(idKey(1));
    fc.assert(
      fc.property(idArb, idArb, (a, b) => {
        expect(idKey(a) === idKey(b)).toBe(typeof a === typeof b && a === b);
      }),
    );
  });

  it('classifies notifications, errors with null ids and malformed messages', () => {
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","method":"tools/list"}').kind).toBe('notification');
    expect(parseJsonRpcLine(JSON.stringify(makeFailure(null, -32700, 'bad'))).kind).toBe('error');
    expect(parseJsonRpcLine('{not json')).toMatchObject({ kind: 'invalid', code: JSON_RPC_ERROR.parseError });
    expect(parseJsonRpcLine('[1,2]')).toMatchObject({ kind: 'invalid', code: JSON_RPC_ERROR.invalidRequest });
    expect(parseJsonRpcLine('{"jsonrpc":"1.0","id":3,"method":"x"}')).toMatchObject({ kind: 'invalid', code: JSON_RPC_ERROR.invalidRequest, id: 3 });
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","id":null,"method":"x"}')).toMatchObject({ kind: 'invalid', id: null });
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}').kind).toBe('invalid');
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"x"}}').kind).toBe('invalid');
  });

  it('never throws on arbitrary JSON values or arbitrary text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        classifyJsonRpcValue(value);
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseJsonRpcLine(text);
      }),
    );
  });

  it('validates MCP tool results including image blocks and refuses other shapes', () => {
    expect(parseToolResult({ content: [{ type: 'text', text: 'ok' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] })).toEqual({
      ok: true,
      result: { content: [{ type: 'text', text: 'ok' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
    });
    expect(parseToolResult({ content: [{ type: 'text', text: 'no' }], isError: true })).toMatchObject({ ok: true, result: { isError: true } });
    expect(parseToolResult({ content: 'x' })).toMatchObject({ ok: false });
    expect(parseToolResult({ content: [{ type: 'image', data: 'AAAA' }] })).toMatchObject({ ok: false, issue: expect.stringContaining('content.0') });
  });

  it('refuses a tools/list with duplicate or nameless tools', () => {
    expect(parseToolsList({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] })).toEqual({ ok: true, tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    expect(parseToolsList({ tools: [{ name: 'a' }, { name: 'a' }] })).toMatchObject({ ok: false, issue: expect.stringContaining('twice') });
    expect(parseToolsList({ tools: [{ description: 'x' }] })).toMatchObject({ ok: false });
  });
});

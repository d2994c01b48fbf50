// The transport in process over in-memory streams with a small line cap: what an oversized line
// is answered with depends on where its writer put the request id.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineStdioServerTransport } from './lineStdioTransport';

async function refusalOf(line: string, chunkBytes: number): Promise<unknown[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineStdioServerTransport({ stdin, stdout, maxLineBytes: 256 });
  const received: unknown[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  const replies: unknown[] = [];
  stdout.on('data', (chunk: Buffer) => replies.push(...chunk.toString('utf8').trim().split('\n').map((text) => JSON.parse(text))));
  for (let i = 0; i < line.length; i += chunkBytes) stdin.write(line.slice(i, i + chunkBytes));
  stdin.write('\n{"jsonrpc":"2.0","id":99,"method":"ping"}\n');
  await new Promise((resolve) => setImmediate(resolve));
  await transport.close();
  expect(received).toEqual([{ jsonrpc: '2.0', id: 99, method: 'ping' }]);
  return replies;
}

const data = 'A'.repeat(2000);

describe('LineStdioServerTransport refusing an oversized line', () => {
  it.each([16, 300, 5000])('answers a request written the way the official SDK writes it (id last) with its id, in chunks of %i bytes', async (chunk) => {
    const line = JSON.stringify({ method: 'tools/call', params: { name: 'analyze_images', arguments: { image_sources: [data], id: 5 } }, jsonrpc: '2.0', id: 42 });
    const replies = await refusalOf(line, chunk);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 42, error: { code: -32600, message: expect.stringMatching(/larger than 256 bytes.*file paths or URLs/) } }]);
  });

  it('answers at once with the id written before params, before the line has ended', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new LineStdioServerTransport({ stdin, stdout, maxLineBytes: 256 });
    await transport.start();
    stdin.write(`{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"data":"${data}`);
    const reply = await new Promise<string>((resolve) => stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    expect(JSON.parse(reply)).toMatchObject({ id: 'r-1', error: { code: -32600 } });
    await transport.close();
  });

  it('answers with id null when neither end of the line holds a readable id', async () => {
    const replies = await refusalOf(`{"jsonrpc":"2.0","method":"tools/call","params":{"data":"${data}","id":3}}`, 100);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } }]);
  });
});

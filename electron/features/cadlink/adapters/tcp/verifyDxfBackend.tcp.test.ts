import { afterEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { openDxfBackend } from '../dxfFile/openDxfBackend';
import { startJsonRpcLineServer, type JsonRpcLineServer } from './jsonRpcLineServer';
import { connectTcpSocket, createSystemClock } from './tcpSocket';
import { verifyConformance } from '../../application/verifyConformance';

// The acceptance: `cadsight verify-cad` prints an all-pass table against our own DXF
// backend served over the cad_mcp_frame protocol.
const fixture = path.resolve(__dirname, '../../../../testSupport/fixtures/dxf/frame_iso_en_a3_titleblock.dxf');

let server: JsonRpcLineServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('verify-cad against the embedded DXF backend', () => {
  it('passes every conformance check', async () => {
    server = await startJsonRpcLineServer({ port: 0, handler: await openDxfBackend(fixture) });
    const report = await verifyConformance({ endpoint: { host: '127.0.0.1', port: server.port }, socketFactory: connectTcpSocket, clock: createSystemClock(), replyTimeoutMs: 5000, silenceMs: 200 });
    expect(report.rows.filter((row) => !row.passed)).toEqual([]);
    expect(report.passed).toBe(true);
  });
});

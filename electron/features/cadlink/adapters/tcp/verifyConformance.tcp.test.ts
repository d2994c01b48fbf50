import { afterEach, describe, expect, it } from 'vitest';
import { verifyConformance, formatConformanceTable, type ConformanceReport } from '../../application/verifyConformance';
import { startJsonRpcLineServer } from './jsonRpcLineServer';
import { connectTcpSocket, createSystemClock } from './tcpSocket';
import { createRecordingToolProvider } from '../../../../testSupport/cadPeers/testToolProvider';
import { startBrokenPeer, type PeerFault } from '../../../../testSupport/cadPeers/brokenPeer';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function verify(port: number): Promise<ConformanceReport> {
  return verifyConformance({ endpoint: { host: '127.0.0.1', port }, socketFactory: connectTcpSocket, clock: createSystemClock(), replyTimeoutMs: 1500, silenceMs: 200 });
}

const failedIds = (report: ConformanceReport): string[] => report.rows.filter((row) => !row.passed).map((row) => row.id);

describe('verifyConformance', () => {
  it('passes every check against a conforming line server and prints an all-pass table', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
    cleanups.push(() => server.close());
    const report = await verify(server.port);
    expect(failedIds(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.rows.map((row) => row.id)).toEqual([
      'tools-list',
      'two-in-one-packet',
      'split-request',
      'large-request',
      'string-id',
      'numeric-id',
      'notification-silence',
      'is-error-mapping',
      'unknown-method',
      'malformed-json',
      'utf8-roundtrip',
    ]);
    const table = formatConformanceTable(report);
    expect(table).toContain('PASS  tools/list returns a valid tool list');
    expect(table).toContain('All 11 checks passed');
  });

  const faults: Array<[PeerFault, string[]]> = [
    ['truncate-2k', ['large-request']],
    ['reply-to-notifications', ['notification-silence']],
    ['numeric-ids', ['two-in-one-packet', 'split-request', 'large-request', 'string-id', 'notification-silence', 'is-error-mapping', 'unknown-method', 'malformed-json', 'utf8-roundtrip']],
    ['no-newline-split', ['split-request']],
  ];
  for (const [fault, expectedFailures] of faults) {
    it(`fails exactly the rows that expose a peer with the "${fault}" fault`, async () => {
      const peer = await startBrokenPeer(fault);
      cleanups.push(() => peer.close());
      const report = await verify(peer.port);
      expect(report.passed).toBe(false);
      expect(failedIds(report)).toEqual(expectedFailures);
      for (const row of report.rows.filter((r) => !r.passed)) expect(row.detail.length).toBeGreaterThan(5);
    });
  }

  it('explains a truncating peer in the failed row', async () => {
    const peer = await startBrokenPeer('truncate-2k');
    cleanups.push(() => peer.close());
    const row = (await verify(peer.port)).rows.find((r) => r.id === 'large-request')!;
    expect(row.detail).toMatch(/-32700/);
  });

  it('throws CAD_NOT_CONNECTED naming host:port when nothing listens', async () => {
    const server = await startJsonRpcLineServer({ port: 0, handler: createRecordingToolProvider() });
    const port = server.port;
    await server.close();
    await expect(verify(port)).rejects.toMatchObject({ code: 'CAD_NOT_CONNECTED', message: expect.stringContaining(`127.0.0.1:${port}`) });
  });
});

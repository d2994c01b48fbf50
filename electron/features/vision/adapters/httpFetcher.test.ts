import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackUrlSpellings } from '../../../testSupport/visionFixtures/badInputs';
import { startTestServer, type HttpTestServer } from '../../../testSupport/visionFixtures/canaryServer';
import { addressPolicy, isNonPublicAddress, parseIp, type AddressPolicy } from '../domain/urlPolicy';
import { fetchUrl, type HttpFetchOptions } from './httpFetcher';

const servers: HttpTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(host: string, handler: Parameters<typeof startTestServer>[1]): Promise<HttpTestServer> {
  const s = await startTestServer(host, handler);
  servers.push(s);
  return s;
}

const options = (allowAddress: AddressPolicy): HttpFetchOptions => ({ allowAddress, connectTimeoutMs: 1_000, totalTimeoutMs: 2_000, maxRedirects: 3 });
/** Allows exactly 127.0.0.2 (the redirector) on top of the default public-only policy. */
const onlyRedirector: AddressPolicy = (ip) => ip.family === 4 && ip.bytes.join('.') === '127.0.0.2' || !isNonPublicAddress(ip);

describe('guarded HTTP fetcher', () => {
  it('never contacts loopback, whatever the URL spelling', async () => {
    const canary = await server('127.0.0.1', (_req, res) => res.end('pwned'));
    for (const url of loopbackUrlSpellings(canary.port)) {
      await expect(fetchUrl(url, 1000, options(addressPolicy(false))), url).rejects.toMatchObject({ code: 'VISION_URL_BLOCKED' });
    }
    expect(canary.hits).toEqual([]);
  });

  it('re-checks every redirect hop, so a redirect to loopback is refused', async () => {
    const canary = await server('127.0.0.1', (_req, res) => res.end('pwned'));
    const targets = [`http://127.0.0.1:${canary.port}/x`, `http://localhost:${canary.port}/x`, `http://[::1]:${canary.port}/x`, `http://2130706433:${canary.port}/x`];
    const redirector = await server('127.0.0.2', (req, res) => {
      const index = Number(req.url?.slice(1));
      res.writeHead(302, { location: targets[index]! }).end();
    });
    for (const [index] of targets.entries()) {
      await expect(fetchUrl(`http://127.0.0.2:${redirector.port}/${index}`, 1000, options(onlyRedirector))).rejects.toMatchObject({ code: 'VISION_URL_BLOCKED' });
    }
    expect(redirector.hits).toHaveLength(targets.length);
    expect(canary.hits).toEqual([]);
  });

  it('checks host names after DNS resolution', async (context) => {
    const canary = await server('127.0.0.1', (_req, res) => res.end('pwned'));
    // The machine's own host name is not a literal and not "localhost", yet resolves to this machine.
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (!resolved || !isNonPublicAddress(parseIp(resolved.address)!)) {
      context.skip(`host name ${name} does not resolve to a non-public address here`);
      return;
    }
    await expect(fetchUrl(`http://${name}:${canary.port}/x`, 1000, options(addressPolicy(false)))).rejects.toMatchObject({
      code: 'VISION_URL_BLOCKED',
      data: expect.objectContaining({ reason: 'private-address-after-dns' }),
    });
    expect(canary.hits).toEqual([]);
  });

  it('follows at most three redirects', async () => {
    const hops = await server('127.0.0.2', (req, res) => {
      const n = Number(req.url?.slice(1));
      if (n >= 10) return res.end('done');
      res.writeHead(301, { location: `/${n + 1}` }).end();
    });
    await expect(fetchUrl(`http://127.0.0.2:${hops.port}/7`, 1000, options(onlyRedirector))).resolves.toMatchObject({ finalUrl: `http://127.0.0.2:${hops.port}/10` });
    await expect(fetchUrl(`http://127.0.0.2:${hops.port}/0`, 1000, options(onlyRedirector))).rejects.toMatchObject({ code: 'VISION_DOWNLOAD_FAILED' });
  });

  it('caps the body while streaming, even without a content-length', async () => {
    const big = await server('127.0.0.2', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    });
    await expect(fetchUrl(`http://127.0.0.2:${big.port}/`, 1000, options(onlyRedirector))).rejects.toMatchObject({ code: 'VISION_IMAGE_TOO_LARGE' });
    await expect(fetchUrl(`http://127.0.0.2:${big.port}/`, 1200, options(onlyRedirector))).resolves.toMatchObject({ bytes: expect.any(Uint8Array) });
  });

  it('gives up after the total timeout with a retryable error', async () => {
    const slow = await server('127.0.0.2', (_req, res) => {
      res.writeHead(200);
      res.write('x');
    });
    await expect(fetchUrl(`http://127.0.0.2:${slow.port}/`, 1000, { ...options(onlyRedirector), totalTimeoutMs: 300 })).rejects.toMatchObject({ code: 'VISION_DOWNLOAD_FAILED', retryable: true });
  });

  it('maps HTTP errors to VISION_DOWNLOAD_FAILED with the status', async () => {
    const missing = await server('127.0.0.2', (_req, res) => res.writeHead(404).end());
    await expect(fetchUrl(`http://127.0.0.2:${missing.port}/`, 1000, options(onlyRedirector))).rejects.toMatchObject({ code: 'VISION_DOWNLOAD_FAILED', retryable: false, data: expect.objectContaining({ status: 404 }) });
  });
});

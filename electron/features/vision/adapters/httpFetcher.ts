import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AppError } from '../../../../shared/errors';
import { visionError } from '../domain/errors';
import { checkUrl, parseIp, type AddressPolicy } from '../domain/urlPolicy';

export interface HttpFetchOptions {
  /** Which resolved addresses may be contacted (loopback/private refused by default). */
  allowAddress: AddressPolicy;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
}

export interface FetchedBytes {
  bytes: Uint8Array;
  contentType?: string;
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * DNS lookup that refuses the connection when any resolved address fails the policy, so a
 * public-looking name that resolves to 127.0.0.1 (or rebinds to it) is never contacted.
 */
function guardedLookup(allowAddress: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => {
        const ip = parseIp(a.address);
        return !ip || !allowAddress(ip);
      });
      if (refused || addresses.length === 0) {
        const blocked = visionError('VISION_URL_BLOCKED', `${hostname} resolves to a loopback, private or link-local address.`, { reason: 'private-address-after-dns' });
        return callback(blocked as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** One HTTP exchange; resolves with the response or a redirect target. */
function requestOnce(url: URL, maxBytes: number, options: HttpFetchOptions, signal: AbortSignal): Promise<FetchedBytes | { redirect: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method: 'GET', agent: false, lookup: guardedLookup(options.allowAddress), signal, headers: { accept: 'image/*,text/html,text/markdown,*/*;q=0.5', 'user-agent': 'cadsight-vision' } });
    const connectTimer = setTimeout(() => request.destroy(visionError('VISION_DOWNLOAD_FAILED', `Connecting to ${url.host} timed out.`, {}, true)), options.connectTimeoutMs);
    request.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (error) => {
      clearTimeout(connectTimer);
      reject(error);
    });
    request.on('response', (response) => {
      clearTimeout(connectTimer);
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        response.resume();
        return resolve({ redirect: response.headers.location });
      }
      if (status < 200 || status >= 300) {
        response.resume();
        const retryable = status === 429 || status >= 500;
        return reject(visionError('VISION_DOWNLOAD_FAILED', `Downloading ${url.host}${url.pathname.slice(0, 80)} failed with HTTP ${status}.`, { status }, retryable));
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        return reject(visionError('VISION_IMAGE_TOO_LARGE', `The download declares ${declared} bytes, over the ${maxBytes}-byte limit.`, { limitBytes: maxBytes }));
      }
      const chunks: Buffer[] = [];
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) {
          response.destroy(visionError('VISION_IMAGE_TOO_LARGE', `The download exceeds the ${maxBytes}-byte limit.`, { limitBytes: maxBytes }));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const joined = Buffer.concat(chunks);
        const contentType = response.headers['content-type'];
        resolve({ bytes: new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength), ...(contentType ? { contentType } : {}), finalUrl: url.href });
      });
    });
    request.end();
  });
}

/**
 * Downloads a URL under the network policy: every hop (≤ maxRedirects) is re-checked, names
 * are checked after DNS, the body is capped while streaming, connect and total timeouts apply.
 * Errors: VISION_URL_BLOCKED, VISION_IMAGE_TOO_LARGE, VISION_DOWNLOAD_FAILED (status, timeout,
 * network, too many redirects).
 */
export async function fetchUrl(raw: string, maxBytes: number, options: HttpFetchOptions, callerSignal?: AbortSignal): Promise<FetchedBytes> {
  const total = AbortSignal.timeout(options.totalTimeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, total]) : total;
  let url = checkUrl(raw, options.allowAddress);
  for (let hop = 0; ; hop++) {
    let result: FetchedBytes | { redirect: string };
    try {
      result = await requestOnce(url, maxBytes, options, signal);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (total.aborted) throw visionError('VISION_DOWNLOAD_FAILED', `Downloading from ${url.host} took longer than ${options.totalTimeoutMs} ms.`, {}, true);
      if (callerSignal?.aborted) throw new AppError('VISION_ABORTED', 'The request was cancelled.');
      const code = (error as NodeJS.ErrnoException).code;
      throw visionError('VISION_DOWNLOAD_FAILED', `Downloading from ${url.host} failed (${code ?? 'network error'}).`, { errno: code }, true);
    }
    if (!('redirect' in result)) return result;
    if (hop >= options.maxRedirects) throw visionError('VISION_DOWNLOAD_FAILED', `More than ${options.maxRedirects} redirects.`, { redirects: hop + 1 });
    let next: URL;
    try {
      next = new URL(result.redirect, url);
    } catch {
      throw visionError('VISION_DOWNLOAD_FAILED', 'A redirect points at an invalid URL.');
    }
    url = checkUrl(next.href, options.allowAddress);
  }
}

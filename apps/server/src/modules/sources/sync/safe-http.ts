import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { formatBytes } from '../../ingestion/uploads/format-bytes';

/** Addresses a website source never reaches unless SOURCE_ALLOWED_HOSTS names the host. */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** A private, loopback, link-local, unspecified or multicast address (IPv4-mapped IPv6 included). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return REFUSED.check(mapped[1]!, 'ipv4');
  return REFUSED.check(address, 'ipv6');
}

/** A request a website source may not make, and why. */
export class RefusedRequestError extends Error {}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SafeRequestOptions {
  /** Hosts (lower-case names or addresses) that may resolve to refused addresses. */
  allowedHosts: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
}

/**
 * One GET, redirects not followed (the caller re-checks each Location). The host's addresses are checked
 * when the connection is made (the lookup the socket itself uses), so a name that resolves to a private
 * address only at connect time is refused too; an address written in the URL is checked before. The body
 * is read up to `maxBytes`, within `timeoutMs` for the whole answer.
 */
export function safeGet(url: URL, options: SafeRequestOptions): Promise<HttpAnswer> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = options.allowedHosts.includes(host);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new RefusedRequestError(`${url.href}: only http and https are fetched.`));
  }
  if (!allowed && isIP(host) && isRefusedAddress(host)) {
    return Promise.reject(refused(host, host));
  }
  const checkedLookup = (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = allowed ? undefined : addresses.find((entry) => isRefusedAddress(entry.address));
      if (bad) return callback(refused(hostname, bad.address), []);
      if (lookupOptions.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
      request.destroy();
    };
    const request = send(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': 'Lumina (source sync)', ...options.headers },
        lookup: checkedLookup as never,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            fail(new RefusedRequestError(`larger than ${formatBytes(options.maxBytes)} (UPLOAD_MAX_BYTES)`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          });
        });
        response.on('error', fail);
      },
    );
    const timer = setTimeout(
      () =>
        fail(
          new RefusedRequestError(
            `no complete answer within ${Math.round(options.timeoutMs / 1000)} s (SOURCE_PAGE_TIMEOUT_SECONDS)`,
          ),
        ),
      options.timeoutMs,
    );
    request.on('error', fail);
    request.end();
  });
}

function refused(host: string, address: string): RefusedRequestError {
  return new RefusedRequestError(
    `${host} resolves to ${address}, a private, loopback or link-local address; name the host in SOURCE_ALLOWED_HOSTS to allow it.`,
  );
}

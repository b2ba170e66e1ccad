import type { Request } from 'express';
import { MAX_PRESENTED_KEY_CHARS } from './api-key';
import { isDirectLoopback, presentedKey } from './request-credentials';

function request(headers: Record<string, string> = {}, remoteAddress = '127.0.0.1'): Request {
  return { headers, socket: { remoteAddress } } as unknown as Request;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('presentedKey', () => {
  it('reads x-api-key first, then a Bearer token, then the basic-auth password (any user name)', () => {
    expect(presentedKey(request({ 'x-api-key': 'lum_a', authorization: 'Bearer lum_b' }))).toBe('lum_a');
    expect(presentedKey(request({ authorization: 'Bearer lum_b' }))).toBe('lum_b');
    expect(presentedKey(request({ authorization: 'bearer   lum_b ' }))).toBe('lum_b');
    expect(presentedKey(request({ authorization: basic('prometheus', 'lum_c') }))).toBe('lum_c');
    expect(presentedKey(request({ authorization: basic('', 'pass:with:colons') }))).toBe('pass:with:colons');
  });

  it('finds no key in empty values, a basic user without password, or other schemes', () => {
    expect(presentedKey(request())).toBeUndefined();
    expect(presentedKey(request({ 'x-api-key': '  ' }))).toBeUndefined();
    expect(presentedKey(request({ authorization: basic('lum_user', '') }))).toBeUndefined();
    expect(presentedKey(request({ authorization: 'Digest username="x"' }))).toBeUndefined();
    expect(presentedKey(request({ authorization: 'Bearer' }))).toBeUndefined();
  });

  it('keeps an over-long key over the limit without copying all of it', () => {
    const key = presentedKey(request({ 'x-api-key': 'k'.repeat(100_000) }));
    expect(key).toHaveLength(MAX_PRESENTED_KEY_CHARS + 1);
  });
});

describe('isDirectLoopback', () => {
  it('is true for loopback peers without proxy headers', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(isDirectLoopback(request({}, address))).toBe(true);
    }
  });

  it('is false for other peers and for loopback requests a proxy forwarded', () => {
    expect(isDirectLoopback(request({}, '10.0.0.7'))).toBe(false);
    expect(isDirectLoopback(request({ 'x-forwarded-for': '203.0.113.9' }))).toBe(false);
    expect(isDirectLoopback(request({ forwarded: 'for=203.0.113.9' }))).toBe(false);
    expect(isDirectLoopback(request({ 'x-real-ip': '203.0.113.9' }))).toBe(false);
    expect(isDirectLoopback({ headers: {}, socket: {} } as unknown as Request)).toBe(false);
  });
});

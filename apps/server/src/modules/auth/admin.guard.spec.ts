import type { Request } from 'express';
import { validateEnv } from '../../config/env.schema';
import { AdminGuard } from './admin.guard';

const KEY = 'an-admin-key-of-some-length';

function request(remoteAddress: string, headers: Record<string, string> = {}): Request {
  return { headers, socket: { remoteAddress } } as unknown as Request;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('AdminGuard', () => {
  describe('without ADMIN_API_KEY', () => {
    const guard = new AdminGuard(validateEnv({}));

    it('lets loopback clients in', () => {
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect(guard.check(request(address)).allowed).toBe(true);
      }
    });

    it('refuses other machines, and loopback requests that came through a proxy', () => {
      expect(guard.check(request('10.0.0.7'))).toMatchObject({ allowed: false, status: 403 });
      expect(guard.check(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }))).toMatchObject({
        allowed: false,
        status: 403,
        message: expect.stringMatching(/ADMIN_API_KEY/),
      });
      expect(guard.check(request('::1', { forwarded: 'for=203.0.113.9' })).allowed).toBe(false);
    });
  });

  describe('with ADMIN_API_KEY', () => {
    const guard = new AdminGuard(validateEnv({ ADMIN_API_KEY: KEY }));

    it('accepts the key in x-api-key or as the basic-auth password, from anywhere', () => {
      expect(guard.check(request('10.0.0.7', { 'x-api-key': KEY })).allowed).toBe(true);
      expect(guard.check(request('10.0.0.7', { authorization: basic('admin', KEY) })).allowed).toBe(true);
      expect(guard.check(request('10.0.0.7', { authorization: basic('', KEY) })).allowed).toBe(true);
    });

    it('asks for the key when it is missing, even on loopback, and refuses a wrong one', () => {
      expect(guard.check(request('127.0.0.1'))).toMatchObject({
        allowed: false,
        status: 401,
        challenge: true,
      });
      expect(guard.check(request('10.0.0.7', { 'x-api-key': `${KEY}x` }))).toMatchObject({
        allowed: false,
        status: 401,
        message: 'The admin key is not valid.',
      });
      expect(guard.check(request('10.0.0.7', { authorization: basic(KEY, 'wrong') })).allowed).toBe(false);
      expect(guard.check(request('10.0.0.7', { authorization: `Bearer ${KEY}` })).allowed).toBe(false);
    });
  });

  it('refuses a key shorter than 16 characters at boot', () => {
    expect(() => validateEnv({ ADMIN_API_KEY: 'short' })).toThrow(
      /ADMIN_API_KEY: must be at least 16 characters/,
    );
  });
});

import { isLoopbackHostHeader, judgeCrossSite } from './cross-site-guard';
import type { CrossSitePolicy } from './cross-site-guard';

const LOCAL: CrossSitePolicy = {
  localMode: true,
  webOrigins: ['http://127.0.0.1:3001', 'http://localhost:3001'],
};
const KEYS: CrossSitePolicy = { ...LOCAL, localMode: false };

function request(headers: Record<string, string>, method = 'POST') {
  return { method, headers: { host: '127.0.0.1:3000', ...headers } };
}

describe('isLoopbackHostHeader', () => {
  it.each([
    'localhost',
    'localhost:3000',
    'LOCALHOST:3000',
    '127.0.0.1:3000',
    '127.8.9.10',
    '[::1]:3000',
    '[::1]',
  ])('accepts %s', (host) => expect(isLoopbackHostHeader(host)).toBe(true));

  it.each([
    undefined,
    '',
    'rebind.evil.example:3000',
    'evil.example',
    '127.0.0.1.evil.example',
    'localhost.evil.example:3000',
    '10.0.0.1:3000',
    '[::2]:3000',
    '127.0.0.1:99999',
    '127.0.0.1:3000:1',
    '127.0.0.1@evil.example',
    'localhost.:3000',
    '127.0.0.1.nip.io:3000',
    '0.0.0.0:3000',
    '[::ffff:7f00:1]:3000',
  ])('refuses %s', (host) => expect(isLoopbackHostHeader(host)).toBe(false));
});

describe('judgeCrossSite in local mode', () => {
  it('lets a plain loopback request (curl) and the web app in', () => {
    expect(judgeCrossSite(request({ 'content-type': 'application/json' }), LOCAL)).toEqual({ ok: true });
    expect(judgeCrossSite(request({ origin: 'http://localhost:3001' }), LOCAL)).toEqual({ ok: true });
    expect(judgeCrossSite(request({ origin: 'http://127.0.0.1:3000' }), LOCAL)).toEqual({ ok: true }); // its own pages
  });

  it('refuses a foreign Host, naming it', () => {
    const verdict = judgeCrossSite({ method: 'GET', headers: { host: 'rebind.evil.example:3000' } }, LOCAL);
    expect(verdict).toEqual({
      ok: false,
      message: expect.stringMatching(/rebind\.evil\.example:3000.*DNS rebinding/),
    });
  });

  it.each([
    'http://evil.example',
    'null',
    'http://127.0.0.1:3002',
    'https://127.0.0.1:3001',
    'not a url',
    'http://127.0.0.1:3001.evil.example',
    'http://localhost:3001@evil.example',
  ])('refuses the Origin %s', (origin) => {
    const verdict = judgeCrossSite(request({ origin }), LOCAL);
    expect(verdict).toEqual({ ok: false, message: expect.stringMatching(/WEB_ORIGIN/) });
  });

  it.each([
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'TEXT/PLAIN;charset=utf-8',
  ])(
    'refuses a keyless %s body without the client header, and lets it in with the header or a key',
    (type) => {
      expect(judgeCrossSite(request({ 'content-type': type }), LOCAL)).toEqual({
        ok: false,
        message: expect.stringMatching(/x-lumina-client/),
      });
      expect(judgeCrossSite(request({ 'content-type': type, 'x-lumina-client': 'cli' }), LOCAL)).toEqual({
        ok: true,
      });
      expect(judgeCrossSite(request({ 'content-type': type, 'x-api-key': 'lum_k' }), LOCAL)).toEqual({
        ok: true,
      });
    },
  );
});

describe('judgeCrossSite with keys', () => {
  it('leaves key-carrying and anonymous requests alone, whatever the Host or Origin', () => {
    const foreign = { host: 'evil.example', origin: 'http://evil.example' };
    expect(judgeCrossSite({ method: 'GET', headers: { ...foreign, 'x-api-key': 'lum_k' } }, KEYS)).toEqual({
      ok: true,
    });
    expect(judgeCrossSite({ method: 'GET', headers: foreign }, KEYS)).toEqual({ ok: true });
    expect(judgeCrossSite(request({ 'content-type': 'application/x-www-form-urlencoded' }), KEYS)).toEqual({
      ok: true,
    });
  });

  it('refuses basic auth (which browsers replay by themselves) from a foreign Origin', () => {
    const basic = `Basic ${Buffer.from('admin:lum_k').toString('base64')}`;
    expect(judgeCrossSite(request({ authorization: basic, origin: 'http://evil.example' }), KEYS)).toEqual({
      ok: false,
      message: expect.stringMatching(/evil\.example/),
    });
    expect(judgeCrossSite(request({ authorization: basic }), KEYS)).toEqual({ ok: true });
  });
});

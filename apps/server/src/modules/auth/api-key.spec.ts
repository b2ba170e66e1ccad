import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, generateApiKey, hashApiKey, isLoopbackHost, keyPrefix } from './api-key';

describe('generateApiKey', () => {
  it('makes lum_ + base64url of 32 random bytes, with its SHA-256 and display prefix', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(key).toMatch(/^lum_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hash).not.toContain(key.slice(4));
    expect(prefix).toBe(key.slice(4, 12));
  });

  it('never makes the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });
});

describe('hashApiKey and keyPrefix', () => {
  it('hash as hex SHA-256 of the UTF-8 text, so ADMIN_API_KEY of any form is stored the same way', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKey('clé')).toBe(createHash('sha256').update(Buffer.from('clé', 'utf8')).digest('hex'));
  });

  it('show the first 8 characters after lum_, or of a key without it', () => {
    expect(keyPrefix('lum_ABCDEFGHIJKL')).toBe('ABCDEFGH');
    expect(keyPrefix('an-operator-chosen-key')).toBe('an-opera');
    expect(keyPrefix('lum_abc')).toBe('abc');
  });
});

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );

  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.7',
    '192.168.1.2',
    'lumina.example.com',
    '128.0.0.1',
    '127.0.0.1.nip.io',
  ])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
});

import { DEFAULT_API_URL, readWebEnv } from './env';

describe('readWebEnv', () => {
  it('defaults to the local API when LUMINA_API_URL is unset or blank', () => {
    expect(readWebEnv({})).toEqual({ apiUrl: DEFAULT_API_URL });
    expect(readWebEnv({ LUMINA_API_URL: '  ' })).toEqual({ apiUrl: DEFAULT_API_URL });
  });

  it('drops a trailing slash and keeps a path prefix', () => {
    expect(readWebEnv({ LUMINA_API_URL: 'https://lumina.example.org/api/' })).toEqual({
      apiUrl: 'https://lumina.example.org/api',
    });
    expect(readWebEnv({ LUMINA_API_URL: 'http://api.internal:3000/' })).toEqual({
      apiUrl: 'http://api.internal:3000',
    });
  });

  it('rejects a value that is not an http(s) URL with a readable error', () => {
    expect(() => readWebEnv({ LUMINA_API_URL: 'localhost:3000' })).toThrow(
      /LUMINA_API_URL must use http or https/,
    );
    expect(() => readWebEnv({ LUMINA_API_URL: 'not a url' })).toThrow(
      /LUMINA_API_URL must be an absolute URL/,
    );
  });
});

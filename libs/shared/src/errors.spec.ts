import { SERVER_ERROR_CODES, errorCodeForStatus, isServerErrorCode } from './errors';

describe('error contract', () => {
  it('maps each status a route answers with to one code', () => {
    expect(
      [400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504].map(errorCodeForStatus),
    ).toEqual([
      'invalid_request',
      'unauthorized',
      'forbidden',
      'not_found',
      'timeout',
      'conflict',
      'too_large',
      'unsupported',
      'invalid_request',
      'rate_limited',
      'server_error',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
  });

  it('recognises only its own codes', () => {
    for (const code of SERVER_ERROR_CODES) expect(isServerErrorCode(code)).toBe(true);
    expect(isServerErrorCode('unreachable')).toBe(false);
    expect(isServerErrorCode(404)).toBe(false);
  });
});

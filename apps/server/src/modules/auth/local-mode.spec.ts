import { EnvValidationError, validateEnv } from '../../config/env.schema';
import { assertSafeListenAddress } from './local-mode';

describe('assertSafeListenAddress', () => {
  it('lets a loopback HOST run without ADMIN_API_KEY', () => {
    expect(() => assertSafeListenAddress(validateEnv({}))).not.toThrow();
    expect(() => assertSafeListenAddress(validateEnv({ HOST: '::1' }))).not.toThrow();
  });

  it('lets any HOST run with ADMIN_API_KEY', () => {
    expect(() =>
      assertSafeListenAddress(validateEnv({ HOST: '0.0.0.0', ADMIN_API_KEY: 'a-key-of-sixteen-chars' })),
    ).not.toThrow();
  });

  it('refuses another HOST without ADMIN_API_KEY, as an environment error naming both', () => {
    const attempt = () => assertSafeListenAddress(validateEnv({ HOST: '0.0.0.0' }));
    expect(attempt).toThrow(EnvValidationError);
    expect(attempt).toThrow(
      /HOST: is "0\.0\.0\.0", which other machines can reach, and ADMIN_API_KEY is not set/,
    );
  });
});

describe('ADMIN_API_KEY', () => {
  it('is refused at boot when shorter than 16 characters', () => {
    expect(() => validateEnv({ ADMIN_API_KEY: 'short' })).toThrow(
      /ADMIN_API_KEY: must be at least 16 characters/,
    );
  });
});

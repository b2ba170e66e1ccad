import nextConfig, { SECURITY_HEADERS } from '../next.config';

describe('the web app refuses to be framed', () => {
  it("sends frame-ancestors 'none' and X-Frame-Options DENY on every path", async () => {
    const rules = await nextConfig.headers!();
    expect(rules).toEqual([{ source: '/:path*', headers: SECURITY_HEADERS }]);
    expect(Object.fromEntries(SECURITY_HEADERS.map(({ key, value }) => [key, value]))).toEqual({
      'Content-Security-Policy': "frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    });
  });
});

import path from 'node:path';
import type { NextConfig } from 'next';

/** The monorepo root: libs/shared lives outside this app and must be compiled and traced too. */
const workspaceRoot = path.join(__dirname, '../..');

/**
 * No page of the app may be framed by another site (clickjacking: a hidden frame over a decoy button
 * that deletes documents or keys): CSP frame-ancestors for current browsers, X-Frame-Options for older.
 */
export const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
];

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  turbopack: { root: workspaceRoot },
  outputFileTracingRoot: workspaceRoot,
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;

import path from 'node:path';
import type { NextConfig } from 'next';

/** The monorepo root: libs/shared lives outside this app and must be compiled and traced too. */
const workspaceRoot = path.join(__dirname, '../..');

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  turbopack: { root: workspaceRoot },
  outputFileTracingRoot: workspaceRoot,
};

export default nextConfig;

/**
 * Browser specs: headless Chromium against the real stack (API server with embedded PGlite and Redis,
 * scripted OpenAI-compatible LLM, built web app), started once by the global setup.
 */
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'web-e2e',
  testMatch: ['**/e2e/**/*.e2e.ts'],
  globalSetup: '<rootDir>/e2e/support/global-setup.ts',
  globalTeardown: '<rootDir>/e2e/support/global-teardown.ts',
  testTimeout: 90_000,
  maxWorkers: 1,
});

/** Browser specs: headless Chromium against a running web app (WEB_URL, default http://127.0.0.1:3001). */
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'web-e2e',
  testMatch: ['**/e2e/**/*.e2e.ts'],
  testTimeout: 60_000,
  maxWorkers: 1,
});

/**
 * The server's fast specs: everything beside the code that needs no database, Redis or model files.
 * The integration specs (src/test, and `*.integration.spec.ts` beside the code) run with jest.config.js.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  displayName: 'server-unit',
  // Pure specs do not fight over an embedded database: half the cores, so the machine stays usable.
  maxWorkers: '50%',
  testTimeout: 30_000,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/src/test/', '\\.integration\\.spec\\.ts$'],
};

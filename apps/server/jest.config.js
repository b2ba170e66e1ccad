module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'server',
  // Integration specs boot their own embedded databases; keep them from fighting over two cores.
  maxWorkers: 1,
  testTimeout: 60_000,
});

/** Unit specs: the zustand slices and the API client, no browser and no server needed. */
module.exports = require('../../jest.preset.js')(__dirname, {
  displayName: 'web',
  testMatch: ['**/store/**/*.spec.ts', '**/lib/**/*.spec.ts'],
});

// The end-to-end tests run the real certificate app, so they share its per-run database set-up.
module.exports = {
  ...require('../../jest.preset.cjs'),
  globalSetup: '<rootDir>/../../services/certificate/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/../../services/certificate/test/helpers/global-teardown.ts',
};

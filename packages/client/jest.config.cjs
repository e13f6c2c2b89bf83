// The end-to-end tests run the real certificate app, so they share its per-run database set-up. They import
// `@platform/client`, which resolves to the compiled dist/ (built by `pnpm test` first): what a partner installs.
module.exports = {
  ...require('../../jest.preset.cjs'),
  moduleNameMapper: { '^@platform/client$': '<rootDir>/dist/index.js' },
  globalSetup: '<rootDir>/../../services/certificate/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/../../services/certificate/test/helpers/global-teardown.ts',
};

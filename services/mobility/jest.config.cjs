module.exports = {
  ...require('../../jest.preset.cjs'),
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/helpers/openapi-conformance.ts'],
};

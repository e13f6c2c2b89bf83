module.exports = {
  ...require('../../jest.preset.cjs'),
  // Its test files mostly wait on Postgres, Redis, timers and child processes, so two run at once even on two cores.
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/helpers/route-conformance.ts'],
};

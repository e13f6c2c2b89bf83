const preset = require('../../jest.preset.cjs');

/**
 * The Data Integrity libraries (and the two small packages they import) are ES modules only; jest loads CommonJS, so
 * swc turns them into CommonJS here. Every other file under node_modules is loaded as it is.
 */
const ESM_ONLY_PACKAGES = ['@digitalbazaar/data-integrity', '@digitalbazaar/eddsa-rdfc-2022-cryptosuite', '@digitalbazaar/ed25519-multikey', 'base58-universal', 'base64url-universal'];

module.exports = {
  ...preset,
  transform: {
    ...preset.transform,
    [`/node_modules/(${ESM_ONLY_PACKAGES.join('|')})/.+\\.js$`]: ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!\\.pnpm/)(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  // Its test files mostly wait on Postgres, Redis, timers and child processes, so two run at once even on two cores.
  maxWorkers: 2,
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
};

module.exports = { ...require('../jest.preset.cjs'), globalSetup: '<rootDir>/test/global-setup.ts' };

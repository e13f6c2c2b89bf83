// The e2e suites here start whole systems (`pnpm start`) and browsers. Each suite stops what it started, also when its
// start fails (startTogether); forceExit is the last guard, so one leaked handle fails this package at once instead of
// holding the whole CI run until its time limit.
module.exports = { ...require('../jest.preset.cjs'), forceExit: true };

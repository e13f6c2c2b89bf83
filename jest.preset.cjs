// Shared jest settings: swc transforms TypeScript (type-checking is `pnpm typecheck`'s job).
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
};

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Feature boundaries: a feature reaches another feature only through its service (or a small read interface the
 * consuming feature owns), never through the other feature's repository. Imports inside one feature start with `./`,
 * so any repository reached through `../` (or through `features/`) belongs to another feature.
 */
const featureBoundaries = {
  files: ['services/*/src/features/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(\\.\\./)+([^/]+/)*[^/]+\\.repository(\\.[cm]?[jt]s)?$',
            message: "Another feature's repository is its internals: use that feature's service, or a read interface this feature owns.",
          },
          {
            regex: '(^|/)features/[^/]+/[^/]+\\.repository(\\.[cm]?[jt]s)?$',
            message: "Another feature's repository is its internals: use that feature's service, or a read interface this feature owns.",
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'bench/results.md'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  featureBoundaries,
);

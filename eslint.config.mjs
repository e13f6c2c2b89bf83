import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import house from './infra/eslint/no-type-cycle.mjs';

/**
 * The house plan, enforced. Libraries (packages/) never import applications (services/, gateway/); applications meet
 * only through HTTP and built artifacts; tools (scripts/, benches, the simulator, drills) use the client, the published
 * entry points of a package's `exports`, or HTTP. Inside a service, a feature reaches another feature only through its
 * face (`features/<name>/index.ts`) or its schema module (`*.schema.ts`: the zod shapes of what it answers, which other
 * features' route tables and schemas embed; a schema module holds shapes only, so reaching it pulls in no behaviour),
 * never imports the composition root, and no module is part of an import cycle. No function in source or tools runs over
 * 120 lines (tests and generated code aside): a longer one is doing several jobs, so it is split by job.
 * infra/test/lint-rules.test.ts proves each rule fires on a violation and is quiet on the allowed form.
 */
const ROOT = path.dirname(fileURLToPath(import.meta.url));
const at = (...parts) => path.join(ROOT, ...parts);
const SERVICES = readdirSync(at('services')).filter((name) => existsSync(at('services', name, 'src', 'features')));
const COMPOSITION_ROOT = ['app.ts', 'services.ts', 'server.ts', 'worker.ts'];

/** (b) One zone per feature: from any other feature, only its face. (c) Features never import their service's composition root. */
const featureZones = SERVICES.flatMap((service) => {
  const features = at('services', service, 'src', 'features');
  const perFeature = readdirSync(features, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      target: path.join(features, name, '**'),
      from: path.join(features, '**'),
      except: [path.join(features, name, '**'), path.join(features, '*', 'index.ts'), path.join(features, '*', '*.schema.ts')],
      message: `Another feature is reached through its faces only: features/<name>/index.ts (what it does) or its *.schema.ts (the shapes it answers, which other features' route tables embed).`,
    }));
  const entries = readdirSync(features, { withFileTypes: true });
  const compositionRoot = {
    target: entries.map((entry) => (entry.isDirectory() ? path.join(features, entry.name, '**') : path.join(features, entry.name))),
    from: COMPOSITION_ROOT.map((file) => at('services', service, 'src', file)),
    message: 'Features never import the composition root (app.ts, services.ts, server.ts, worker.ts): take what you need as a parameter.',
  };
  return [...perFeature, compositionRoot];
});

/** (d) Libraries never import applications: nothing in a package's source or scripts resolves into services/ or gateway/. */
const libraryZone = {
  target: [at('packages', '*', 'src', '**'), at('packages', '*', 'scripts', '**')],
  from: [at('services', '**'), at('gateway', '**')],
  message: 'A library never imports an application: reach it over HTTP or read its built artifacts.',
};

/**
 * (e) Tools never import another package's `src`, by path or by a deep package path: they use the client, the
 * published entry points of a package's `exports` (`@platform/<name>/<entry>`), or HTTP. A service's benches and
 * scripts import their own service by its package name too, and a bench imports no script.
 */
const SOURCE_PATHS = [
  { regex: '(^|/)(services/[^/]+|gateway|packages/[^/]+)/(src|test)(/|$)', message: "Tools never import a package's src: use its published entry points (package.json exports), the client, or HTTP." },
  { regex: '^@platform/[^/]+/(src|test)(/|$)', message: "Tools never import a package's src: use its published entry points (package.json exports), the client, or HTTP." },
  { regex: '^(\\.\\./)+src(/|$)', message: "Tools never import their service's src: import it by its package name's published entry points (@platform/<service>/tooling)." },
  { regex: '^#', message: 'Tools reach the services through their package exports, not a root import alias.' },
];
const toolBoundaries = [
  {
    files: ['scripts/**/*.ts', 'services/*/scripts/**/*.ts', 'services/*/bench/**/*.ts'],
    ignores: ['services/*/scripts/write-openapi.cjs'],
    rules: { 'no-restricted-imports': ['error', { patterns: SOURCE_PATHS }] },
  },
  {
    files: ['services/*/bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...SOURCE_PATHS, { regex: '(^|/)scripts(/|$)', message: 'A bench imports no script: shared bench helpers live in @platform/bench-kit.' }] },
      ],
    },
  },
];

/**
 * Feature repositories: a feature reaches another feature only through its service (or a small read interface the
 * consuming feature owns), never through the other feature's repository. Imports inside one feature start with `./`,
 * so any repository reached through `../` (or through `features/`) belongs to another feature.
 */
const featureRepositories = {
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

/** Import rules need module resolution: workspace packages resolve to their TypeScript sources (the `source` export condition). */
const importResolution = {
  plugins: { 'import-x': importX },
  settings: {
    // Without these import-x reads only JavaScript files for the modules an import leads to (no-cycle sees no TypeScript).
    'import-x/extensions': ['.ts', '.tsx', '.js', '.cjs', '.mjs'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [
      createTypeScriptImportResolver({
        project: [at('tsconfig.json'), at('gateway', 'tsconfig.json'), at('infra', 'tsconfig.json'), at('services', '*', 'tsconfig.json'), at('packages', '*', 'tsconfig.json')],
        conditionNames: ['source', 'types', 'import', 'require', 'node', 'default'],
        noWarnOnMultipleProjects: true,
      }),
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
  {
    files: ['services/**/*.{ts,tsx}', 'gateway/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    ...importResolution,
    plugins: { ...importResolution.plugins, house },
    rules: {
      // (a) No import cycles: import-x/no-cycle for the imports that run, house/no-type-cycle for those that only
      // name types (import-x skips them), since a circle of types still ties two modules together.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'house/no-type-cycle': 'error',
    },
  },
  {
    files: ['services/*/src/features/**/*.ts'],
    ...importResolution,
    plugins: { ...importResolution.plugins, house },
    // (f) No circle between feature folders: a face shared both ways belongs on a floor below the features.
    rules: { 'import-x/no-restricted-paths': ['error', { zones: featureZones }], 'house/no-feature-cycle': 'error' },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/*/scripts/**/*.ts'],
    ...importResolution,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [libraryZone] }] },
  },
  featureRepositories,
  ...toolBoundaries,
  {
    // (g) Size brakes: a function over 120 lines (blank lines and comments counted) does several jobs; split it by job.
    files: ['services/*/src/**/*.{ts,tsx}', 'gateway/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}', 'scripts/**/*.{ts,tsx,js,mjs,cjs}', 'services/*/scripts/**/*.{ts,tsx,js,mjs,cjs}', 'services/*/bench/**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'packages/client/src/schema.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Generated: the whole API's types in one file, each service's description as a namespace beside the partner API's.
    files: ['packages/client/src/schema.ts'],
    rules: { '@typescript-eslint/no-namespace': 'off' },
  },
);

/**
 * `house/no-type-cycle`: no import cycle, `import type` included. import-x/no-cycle skips type-only imports (they vanish
 * from the compiled code), but a circle of types still ties two modules together: neither can move or be read alone.
 * The graph is read from disk (imports resolved as TypeScript does, workspace packages to their sources through the
 * `source` export condition) and cached per file for the run; the file being linted contributes its current text.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const compilerOptions = {
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  customConditions: ['source'],
  allowJs: true,
  resolveJsonModule: true,
};

/** A module of the repository that a specifier names, or undefined (packages from the registry, declarations, unresolved). */
export function resolveModule(specifier, fromFile) {
  const resolved = ts.resolveModuleName(specifier, fromFile, compilerOptions, ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.endsWith('.d.ts')) return undefined;
  return path.resolve(resolved.resolvedFileName);
}

const edgesCache = new Map();

/** The modules a file on disk imports (types, re-exports and `require` included). */
export function importsOf(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = edgesCache.get(file);
  if (cached?.mtime === mtime) return cached.imports;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(importedFiles.map(({ fileName }) => resolveModule(fileName, file)).filter(Boolean))];
  edgesCache.set(file, { mtime, imports });
  return imports;
}

/** The shortest way from `start` back to `file`, as the modules passed through, or undefined when there is none. */
function pathBack(start, file) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const next of importsOf(at)) {
      if (next === file) {
        const route = [];
        for (let step = at; step !== undefined; step = parent.get(step)) route.unshift(step);
        return route;
      }
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export const noTypeCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import cycle (types included): {{route}}' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const root = context.cwd;
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = resolveModule(node.source.value, file);
      if (!target || target === file) return;
      const route = pathBack(target, file);
      if (!route) return;
      const shown = [file, ...route, file].map((module) => path.relative(root, module)).join(' -> ');
      context.report({ node, messageId: 'cycle', data: { route: shown } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

import { noFeatureCycle } from './no-feature-cycle.mjs';

export default { rules: { 'no-type-cycle': noTypeCycle, 'no-feature-cycle': noFeatureCycle } };

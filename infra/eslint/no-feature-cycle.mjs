/**
 * `house/no-feature-cycle`: no circle between the feature folders of a service. A feature may use another (through its
 * face), but never one that uses it back, directly or through others: shapes several features share live on a floor
 * below the features (`src/platform/`, or a shared folder), so faces form no circle. The folder graph is read from disk
 * (every file of `features/<name>/`, imports resolved as TypeScript does); the file being linted contributes its imports.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { importsOf, resolveModule } from './no-type-cycle.mjs';

/** `{ features, name }` for a file under `services/<service>/src/features/<name>/`, else undefined. */
function featureOf(file) {
  const match = /^(.*[\\/]services[\\/][^\\/]+[\\/]src[\\/]features)[\\/]([^\\/]+)[\\/]/.exec(file);
  return match ? { features: match[1], name: match[2] } : undefined;
}

function filesUnder(folder) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.[cm]?tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/** Feature folder → the feature folders its files import (the linted file's own imports replace what disk says of it). */
function folderGraph(features, linted, lintedImports) {
  const graph = new Map();
  for (const name of readdirSync(features, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
    const used = new Set();
    for (const file of filesUnder(path.join(features, name))) {
      for (const target of file === linted ? lintedImports : importsOf(file)) {
        const other = featureOf(target);
        if (other && other.features === features && other.name !== name) used.add(other.name);
      }
    }
    graph.set(name, used);
  }
  return graph;
}

/** The shortest way from folder `start` to folder `goal`, as folder names, or undefined. */
function folderPath(graph, start, goal) {
  const parent = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    for (const next of graph.get(at) ?? []) {
      if (parent.has(next)) continue;
      parent.set(next, at);
      if (next === goal) {
        const route = [];
        for (let step = next; step !== undefined; step = parent.get(step)) route.unshift(step);
        return route;
      }
      queue.push(next);
    }
  }
  return undefined;
}

export const noFeatureCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import circle between the feature folders of a service.' },
    schema: [],
    messages: { cycle: 'Feature folders form a circle: {{route}}. Move the shapes both need to a floor below the features.' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const own = featureOf(file);
    if (!own) return {};
    const nodes = [];
    const collect = (node) => {
      if (node.source && typeof node.source.value === 'string') nodes.push(node);
    };
    return {
      ImportDeclaration: collect,
      ExportNamedDeclaration: collect,
      ExportAllDeclaration: collect,
      'Program:exit'() {
        const resolved = nodes.map((node) => ({ node, target: resolveModule(node.source.value, file) }));
        const graph = folderGraph(own.features, file, resolved.map(({ target }) => target).filter(Boolean));
        const reported = new Set();
        for (const { node, target } of resolved) {
          const other = target && featureOf(target);
          if (!other || other.features !== own.features || other.name === own.name || reported.has(other.name)) continue;
          const back = folderPath(graph, other.name, own.name);
          if (!back) continue;
          reported.add(other.name);
          context.report({ node, messageId: 'cycle', data: { route: [own.name, ...back].join(' -> ') } });
        }
      },
    };
  },
};

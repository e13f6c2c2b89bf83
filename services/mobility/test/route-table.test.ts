import type { Express } from 'express';
import { mobilityRouteTable } from '../src/route-table';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

interface Layer {
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** `METHOD /path` (OpenAPI form) of every route the Express app mounts, walking its routers. */
function mountedRoutes(app: Express): string[] {
  const walk = (stack: Layer[], prefix: string): string[] =>
    stack.flatMap((layer) => {
      const at = typeof layer.rawPath === 'string' ? layer.rawPath : '';
      if (layer.route) {
        const path = openApiPath(prefix + layer.route.path);
        return Object.keys(layer.route.methods).filter((method) => method !== '_all').map((method) => `${method.toUpperCase()} ${path}`);
      }
      return layer.handle?.stack ? walk(layer.handle.stack, prefix + (at === '/' ? '' : at)) : [];
    });
  return [...new Set(walk((app as unknown as { router: { stack: Layer[] } }).router.stack, ''))];
}

/** `/api/v1/rides/:id/` → `/api/v1/rides/{id}`. */
function openApiPath(path: string): string {
  const normalised = path.replace(/:(\w+)/g, '{$1}').replace(/\/+$/, '');
  return normalised === '' ? '/' : normalised;
}

describe('the mobility route table', () => {
  it('declares every route Express mounts, and Express mounts every route it declares', () => {
    const declared = mobilityRouteTable.map((spec) => `${spec.method.toUpperCase()} ${spec.path}`);
    expect(mountedRoutes(ctx.app).sort()).toEqual([...declared].sort());
  });

  it('declares each operation once, with a unique operationId', () => {
    const ids = mobilityRouteTable.map((spec) => spec.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

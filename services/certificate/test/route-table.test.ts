import express from 'express';
import { certificateRouteTable } from '../src/route-table';
import { createTestContext, type TestContext } from './helpers/context';

/**
 * Every route Express mounts is an operation of the route table, and every operation of the table is mounted. The
 * routers record what they mount while the app is built (Express keeps no mount paths of its own to read back).
 */
interface RecordedRoute {
  path: string;
  route: { methods: Record<string, boolean> };
}
type RouterPrototype = {
  route(this: object, path: string): RecordedRoute['route'];
  use(this: object, ...args: unknown[]): unknown;
};
const prototype = (express.Router as unknown as { prototype: RouterPrototype }).prototype;
const routesOf = new Map<object, RecordedRoute[]>();
const mountsOf = new Map<object, Array<{ path: string; child: object }>>();
const { route: originalRoute, use: originalUse } = prototype;
prototype.route = function (this: object, path: string) {
  const route = originalRoute.call(this, path);
  routesOf.set(this, [...(routesOf.get(this) ?? []), { path, route }]);
  return route;
};
prototype.use = function (this: object, ...args: unknown[]) {
  const path = typeof args[0] === 'string' ? args[0] : '/';
  for (const handler of args.flat()) {
    if (typeof handler === 'function' && Array.isArray((handler as { stack?: unknown }).stack)) mountsOf.set(this, [...(mountsOf.get(this) ?? []), { path, child: handler }]);
  }
  return originalUse.apply(this, args);
};

/** Routes answered outside the partner and dashboard description, each with its reason. */
const UNDESCRIBED = new Set([
  'GET /internal/v1/dashboard-sessions/check', // the gateway's own session check, never exposed through it
]);

const join = (prefix: string, path: string) => `${prefix.replace(/\/$/, '')}${path === '/' ? '' : path}` || '/';

function mounted(router: object, prefix = ''): string[] {
  const own = (routesOf.get(router) ?? []).flatMap(({ path, route }) =>
    Object.keys(route.methods)
      .filter((method) => method !== '_all')
      .map((method) => `${method.toUpperCase()} ${join(prefix, path)}`),
  );
  return [...own, ...(mountsOf.get(router) ?? []).flatMap(({ path, child }) => mounted(child, join(prefix, path)))];
}

/** `/credentials/:code/document.:format` → a pattern a table path (its `{parameters}` filled in) must match. */
function expressPattern(route: string): RegExp {
  const [method, path] = route.split(' ') as [string, string];
  const source = path.split(/(:\w+)/).map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${method} ${source}$`);
}

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => {
  prototype.route = originalRoute;
  prototype.use = originalUse;
  return ctx.close();
});

describe('the route table and the mounted routes', () => {
  const tableRoutes = () => certificateRouteTable.map((spec) => `${spec.method.toUpperCase()} ${spec.path.replace(/\{([^}]+)\}/g, '$1_1')}`);
  const mountedRoutes = () => mounted((ctx.app as unknown as { router: object }).router).filter((route) => !UNDESCRIBED.has(route));

  it('mounts something (the recording works)', () => {
    expect(mountedRoutes()).toEqual(expect.arrayContaining(['GET /api/v1/credits', 'POST /admin/v1/certificates/batch', 'GET /healthz']));
  });

  it('declares every mounted route in the table', () => {
    const table = tableRoutes();
    expect(mountedRoutes().filter((route) => !table.some((declared) => expressPattern(route).test(declared)))).toEqual([]);
  });

  it('mounts every operation of the table', () => {
    const patterns = mountedRoutes().map(expressPattern);
    expect(tableRoutes().filter((declared) => !patterns.some((pattern) => pattern.test(declared)))).toEqual([]);
  });
});

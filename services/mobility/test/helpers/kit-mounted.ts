import type { Express } from 'express';
import type { RouteSpec } from '@platform/service-kit/route-table';
import { expressPath } from '@platform/service-kit/route-table';
import { mobilityRouteTable } from '../../src/route-table';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/**
 * The operations of the route table the kit mounts (`mountOperations`): each is a route of the app itself, at its
 * table path; a legacy router's routes sit one level down, under `app.use`. While features move onto the route table
 * (`partial: true`), the rest are answered by their legacy routers.
 */
export function kitMounted(app: Express): Set<string> {
  const routes = new Set(
    (app as unknown as { router: { stack: Layer[] } }).router.stack.flatMap((layer) =>
      layer.route ? Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${layer.route!.path}`) : [],
    ),
  );
  return new Set(mobilityRouteTable.filter((spec) => routes.has(`${spec.method.toUpperCase()} ${expressPath(spec.path)}`)).map((spec) => spec.operationId));
}

/** The operation ids of the table not yet kit-mounted (answered by a legacy router): computed from the app, never written down. */
export function notYetMoved(app: Express): string[] {
  const mounted = kitMounted(app);
  return mobilityRouteTable.map((spec) => spec.operationId).filter((id) => !mounted.has(id));
}

/** The security schemes an operation names (`apiKey`, `adminJwt`, …). */
export function schemesOf(spec: RouteSpec): string[] {
  return (spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
}

export const label = (spec: RouteSpec) => `${spec.operationId} (${spec.method.toUpperCase()} ${spec.path})`;

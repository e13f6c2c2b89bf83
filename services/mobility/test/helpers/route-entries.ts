import type { RouteSpec } from '@platform/service-kit/route-table';

/** The security schemes an operation names (`apiKey`, `adminJwt`, …). */
export function schemesOf(spec: RouteSpec): string[] {
  return (spec.security ?? []).flatMap((requirement) => Object.keys(requirement));
}

/** An operation as a test names it: `operationId (METHOD /path)`. */
export const label = (spec: RouteSpec) => `${spec.operationId} (${spec.method.toUpperCase()} ${spec.path})`;

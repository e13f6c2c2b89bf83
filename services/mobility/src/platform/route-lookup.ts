import type { RouteSpec } from '@platform/service-kit/route-table';

/** The operation `operationId` of a route table; a missing one fails at start-up, not on a request. */
export function operationOf(table: readonly RouteSpec[], operationId: string): RouteSpec {
  const found = table.find((spec) => spec.operationId === operationId);
  if (!found) throw new Error(`the route table has no operation ${operationId}`);
  return found;
}

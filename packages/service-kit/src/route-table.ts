/**
 * A service's route table, by job: the spec of one operation (`route-spec.ts`), the OpenAPI description built from a
 * table (`describe-routes.ts`), answers checked against it (`response-conformance.ts`). The app mounted from it lives
 * in `mount-operations.ts` (it names Express; this entry point names only zod and plain data).
 */
export * from './route-spec';
export * from './describe-routes';
export * from './response-conformance';

/** `/a/{id}` → `/a/:id`. */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

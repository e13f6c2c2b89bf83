import type { MobilityScope } from '@platform/api-keys';

/** The security requirement of a partner operation: an API key (either header) holding `scope`. */
export function partnerScope<S extends MobilityScope>(scope: S) {
  return [{ apiKey: [scope] }, { apiKeyHeader: [scope] }] as [{ apiKey: [S] }, { apiKeyHeader: [S] }];
}

/** The scope a route's security requirement names (the one the fast lanes check); a route without one fails at start-up. */
export function requiredScope(route: { operationId: string; security?: ReadonlyArray<Record<string, readonly string[]>> }): MobilityScope {
  const scope = route.security?.flatMap((requirement) => Object.values(requirement).flat())[0];
  if (!scope) throw new Error(`${route.operationId} names no scope`);
  return scope as MobilityScope;
}

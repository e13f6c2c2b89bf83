import type { MobilityScope } from '@platform/api-keys';

/** The security requirement of a partner operation: an API key (either header) holding `scope`. */
export function partnerScope<S extends MobilityScope>(scope: S) {
  return [{ apiKey: [scope] }, { apiKeyHeader: [scope] }] as [{ apiKey: [S] }, { apiKeyHeader: [S] }];
}

/** The scope a route's security requirement names (the one the fast lanes check), if any. */
export function scopeOf(route: { security?: ReadonlyArray<Record<string, readonly string[]>> }): MobilityScope | undefined {
  return route.security?.flatMap((requirement) => Object.values(requirement).flat())[0] as MobilityScope | undefined;
}

import type { MobilityDeps, MobilityServices } from './services';

/**
 * Every operation's handler, feature by feature, keyed by operation id. Where each is mounted, how it is guarded,
 * parsed, limited and audited is the route table's (`route-table.ts`); a feature gives only what it does.
 */
export function mobilityHandlers(_deps: MobilityDeps, _services: MobilityServices): Record<string, (input: never) => unknown> {
  return {};
}

/**
 * The mobility service's entry point for the repository's tools (benchmarks, the simulator's local service, drills):
 * what they may build the service from in-process. Published as `@platform/mobility/tooling`; tools import nothing
 * else of `src/`.
 */
export { createApp } from './app';
export { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
export type { MobilityConfig } from './config';
export { migrations } from './db/migrations';
export { buildServices } from './services';
export type { MobilityDeps, MobilityServices } from './services';
export { createDispatchWorker } from './features/dispatch';
export { appendOutboxEvent } from './features/outbox';
export { createEndpointSecretCipher, startWebhookDispatch, WORKER_DB_SETTINGS } from './features/webhook-dispatch';
export { createWebhookSender } from './features/webhook-dispatch/webhook-sender';
export { createStatementBatcher } from './features/webhook-dispatch/statement-batcher';
export { FleetLocations, scopesServing } from './features/fleet/fleet.locations';
export { TIERS } from './platform/pricing';

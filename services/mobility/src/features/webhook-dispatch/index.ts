/** The webhook-dispatch feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { ALWAYS_DELIVERED_EVENT_TYPES, nextEndpointEventSequence } from './endpoint-events';
export type { AppendEndpointEvent } from './endpoint-events';
export { createEndpointSecretCipher } from './endpoint-secret-cipher';
export type { EndpointSecretCipher } from './endpoint-secret-cipher';
export { EVENT_RETENTION_DAYS, scheduleEventRetention } from './event-retention';
export { DEFAULT_RETRY_SCHEDULE_MS, retryPolicyFrom } from './retry-schedule';
export { assertSafeTarget, UnsafeTargetError } from '@platform/service-kit/ssrf-guard';
export type { TargetPolicy } from '@platform/service-kit/ssrf-guard';
export { WEBHOOK_URL_REFUSED } from './webhook-url-refusals';
export type { WebhookAttemptRow, WebhookMessageRow } from './webhook-message.types';
export { createWebhookQueue, enqueueWebhookMessages } from './webhook-queue';
export type { WebhookQueue } from './webhook-queue';
export { startWebhookDispatch, WORKER_DB_SETTINGS } from './webhook-worker';

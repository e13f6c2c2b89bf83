import { Counter, type Registry } from 'prom-client';

export type WebhookAttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'endpoint_gone' | 'endpoint_deleted';

export interface WebhookAttemptMetrics {
  outcome(outcome: WebhookAttemptOutcome): void;
}

/** `webhook_delivery_attempts_total{outcome}`: every HTTP attempt, by what came of it. */
export function createWebhookAttemptMetrics(registry: Registry): WebhookAttemptMetrics {
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Outgoing webhook attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return { outcome: (outcome) => attempts.inc({ outcome }) };
}

/** BullMQ queue names; every queue lives under REDIS_PREFIX (BullMQ's `prefix` option). */
export const QUEUES = {
  webhooks: 'webhook-deliveries',
  dispatch: 'dispatch-timers',
} as const;

import type { Migration } from '@platform/service-kit';
import * as outbox from './migrations/0001_outbox';
import * as webhooks from './migrations/0100_webhooks';

/** Every migration of the `mobility` schema, in order. A merged migration is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '0001_outbox': outbox,
  '0100_webhooks': webhooks,
};

import type { Migration } from '@platform/service-kit';

/** Every migration of the `mobility` schema, in order. A merged migration is never edited: add a new one. */
export const migrations: Record<string, Migration> = {};

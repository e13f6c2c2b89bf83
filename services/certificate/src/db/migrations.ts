import type { Migration } from '@platform/service-kit';
import * as core from './migrations/0001_core';

/** Every migration of the `certificate` schema, in order. A merged migration is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
};

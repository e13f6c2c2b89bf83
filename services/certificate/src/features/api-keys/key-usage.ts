import type { Knex } from '@platform/service-kit';

const WRITE_EVERY_MS = 60_000;

/**
 * Records `last_used_at` at most once a minute per key and off the request's path, so the hot read endpoints
 * do not turn into writes.
 */
export function keyUsageRecorder(db: Knex) {
  const lastWritten = new Map<string, number>();
  return (keyId: string): void => {
    const now = Date.now();
    if (now - (lastWritten.get(keyId) ?? 0) < WRITE_EVERY_MS) return;
    lastWritten.set(keyId, now);
    if (lastWritten.size > 10_000) lastWritten.clear();
    void db('api_keys')
      .where({ id: keyId })
      .update({ last_used_at: db.fn.now() })
      .catch(() => lastWritten.delete(keyId));
  };
}

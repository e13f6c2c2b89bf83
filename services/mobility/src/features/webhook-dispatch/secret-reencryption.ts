import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { EndpointSecretCipher } from './endpoint-secret-cipher';
import { endpointsWithStaleSecrets, replaceStoredSecret } from './webhook-targets.repository';

/**
 * Brings every stored signing secret under the current key: plaintext rows from before encryption and rows under a
 * previous key. The worker runs it at start; a row it cannot decrypt (its key is no longer configured) is logged and
 * left alone. Deliveries also re-encrypt a stale secret when they use it, so this is the catch-up for quiet endpoints.
 */
export async function reencryptStaleSecrets(db: Knex, cipher: EndpointSecretCipher, logger: Logger, batchSize = 500): Promise<number> {
  let rewritten = 0;
  const skipped = new Set<string>();
  for (;;) {
    const rows = (await endpointsWithStaleSecrets(db, cipher.currentKeyId, batchSize + skipped.size)).filter((r) => !skipped.has(r.id));
    if (rows.length === 0) return rewritten;
    for (const row of rows) {
      try {
        const { secret } = cipher.decrypt(row.id, row.secret);
        await replaceStoredSecret(db, row.id, row.secret, cipher.encrypt(row.id, secret));
        rewritten += 1;
      } catch (err) {
        skipped.add(row.id);
        logger.error({ err, endpointId: row.id }, 'cannot re-encrypt a webhook secret: its key is not configured');
      }
    }
  }
}

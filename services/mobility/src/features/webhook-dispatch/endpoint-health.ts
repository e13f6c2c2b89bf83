import type { Knex } from '@platform/service-kit/db';
import { nextEndpointEventSequence, type AppendEndpointEvent } from './endpoint-events';

/** An endpoint whose every attempt has failed for this long (no 2xx since `failing_since`) is disabled. */
export const FAILING_DAYS_BEFORE_DISABLE = 5;

export const FAILING_TOO_LONG_REASON = `Every delivery attempt failed for ${FAILING_DAYS_BEFORE_DISABLE} days`;

/**
 * Disables an enabled endpoint and, in the same transaction, writes a `webhook_endpoint.disabled` event, which the
 * relay sends to the partner's other enabled endpoints of the same mode (live or test). `onlyIfFailingTooLong` applies the 5-day rule; without it
 * (a 410 Gone) the endpoint is disabled at once. Returns whether this call disabled it.
 */
export async function disableEndpoint(db: Knex, appendEvent: AppendEndpointEvent, endpointId: string, reason: string, onlyIfFailingTooLong = false): Promise<boolean> {
  return db.transaction(async (trx) => {
    const query = trx('webhook_endpoints').where({ id: endpointId, status: 'enabled' });
    if (onlyIfFailingTooLong) query.whereRaw('failing_since <= now() - make_interval(days => ?)', [FAILING_DAYS_BEFORE_DISABLE]);
    const [row] = await query
      .update({ status: 'disabled', disabled_reason: reason, updated_at: trx.fn.now() })
      .returning(['id', 'partner_id', 'livemode', 'url', 'events', 'description', 'status', 'disabled_reason', 'failing_since', 'updated_at']);
    if (!row) return false;
    await appendEvent(trx, {
      partnerId: row.partner_id,
      livemode: row.livemode,
      type: 'webhook_endpoint.disabled',
      objectType: 'webhook_endpoint',
      objectId: row.id,
      sequence: await nextEndpointEventSequence(trx, row.id),
      data: {
        id: row.id,
        url: row.url,
        events: row.events,
        description: row.description,
        status: row.status,
        disabled_reason: row.disabled_reason,
        failing_since: row.failing_since ? new Date(row.failing_since).toISOString() : null,
        updated_at: new Date(row.updated_at).toISOString(),
      },
    });
    return true;
  });
}

import type { Knex } from '@platform/service-kit/db';

/**
 * `courier_progress` of a sandbox advance to `picked_up`: puts the sandbox courier that far along the test delivery's
 * route line (0 the pick-up, 1 the drop-off), which its tracking page then shows. Only the sandbox writes this column.
 */
export function placeCourier(progress: number) {
  return async (trx: Knex.Transaction, row: { id: string }): Promise<void> => {
    await trx('deliveries').where({ id: row.id }).update({ sandbox_courier_progress: progress });
  };
}

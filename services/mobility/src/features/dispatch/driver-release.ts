import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { FleetLocations } from '../fleet';
import type { DriverPool } from './dispatch.types';
import type { OffersRepository } from './offers.repository';

/**
 * Freeing drivers when a job stops searching or ends: in the job's transaction the open offers close and their drivers
 * are released; after commit each freed driver who is still available goes back into the dispatch index.
 */
export function createDriverRelease(offers: Pick<OffersRepository, 'withdrawPendingOffers'>, drivers: DriverPool, locations: FleetLocations, logger: Logger) {
  return {
    /** In the caller's transaction (cancel, time-out, end of a job): closes open offers and frees the drivers they held. */
    async withdrawOffers(trx: Knex.Transaction, jobId: string): Promise<string[]> {
      const withdrawn = await offers.withdrawPendingOffers(trx, jobId);
      for (const offer of withdrawn) await drivers.releaseDriver(trx, offer.driver_id, jobId);
      return withdrawn.map((offer) => offer.driver_id);
    },

    /** After commit: a freed driver who is still available (and not disabled) goes back into the dispatch index. */
    async afterDriverFreed(driverId: string): Promise<void> {
      try {
        const driver = await drivers.findDriver(driverId);
        if (driver && driver.available && !driver.currentJobId && !driver.disabledAt) await locations.restoreToIndex(driver);
      } catch (err) {
        logger.warn({ err, driverId }, 'could not restore driver to the dispatch index');
      }
    },
  };
}

export type DriverRelease = ReturnType<typeof createDriverRelease>;

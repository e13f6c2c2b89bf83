import type { Handlers } from '@platform/service-kit/operations';
import { accountOf } from '../api-keys';
import type { estimatesContract } from './estimates.contract';
import type { EstimateService } from './estimates.service';

/** `createEstimate`: fares and pick-up ETAs for every tier, in the key's mode (a test key sees the sandbox driver only). */
export function estimateHandlers(estimates: EstimateService): Handlers<typeof estimatesContract> {
  return {
    createEstimate: async ({ body, req }) => ({ status: 200, body: await estimates.createEstimate(accountOf(req), body.pickup, body.dropoff) }),
  };
}

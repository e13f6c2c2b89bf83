import type { Handlers } from '@platform/service-kit/operations';
import { accountOf } from '../api-keys';
import { deliveryId } from '../deliveries';
import { rideId } from '../rides';
import type { sandboxContract } from './sandbox.contract';
import type { SandboxService } from './sandbox.service';

/** The sandbox: a test-mode key moves its own test jobs on (the route table admits test keys only, with the job's write scope). */
export function sandboxHandlers(sandbox: SandboxService): Handlers<typeof sandboxContract> {
  return {
    sandboxAdvanceRide: async ({ params, body, req }) => ({ status: 200, body: await sandbox.advanceRide(accountOf(req), rideId(params.id), body.to) }),
    sandboxAdvanceDelivery: async ({ params, body, req }) => ({
      status: 200,
      body: await sandbox.advanceDelivery(accountOf(req), deliveryId(params.id), body.to, body.courier_progress),
    }),
  };
}

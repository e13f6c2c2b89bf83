import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import type { z } from 'zod';
import type { fleetContract } from './fleet.contract';
import type { registeredDriverResponse } from './fleet.schema';
import type { FleetService, OnDriverRegistered } from './fleet.service';

/** What the fleet's handlers need beyond the fleet: the dispatcher and the driver-sessions feature, wired in the composition root. */
export interface FleetHandlerPorts {
  /** An offer a disabled driver still holds goes to the next nearest driver at once. */
  passOnOpenOffers: (driverId: string) => Promise<void>;
  /** The driver's first activation code, issued in the registering transaction (the answer carries it). */
  onRegistered: OnDriverRegistered<Pick<z.input<typeof registeredDriverResponse>, 'activation_code' | 'activation_code_expires_at'>>;
}

/**
 * `/admin/v1/drivers`: the organization's drivers and couriers (who may: the contract's fleet managers). A fresh
 * activation code (`issueDriverActivationCode`) is the driver-sessions feature's handler.
 */
export function fleetHandlers(fleet: FleetService, ports: FleetHandlerPorts): Omit<Handlers<typeof fleetContract>, 'issueDriverActivationCode'> {
  return {
    registerDriver: async ({ body, req, res }) => {
      // The answer carries the driver's first activation code (issued in the same transaction): no-store, set before
      // the fleet is asked so a refusal carries it too, as it always has.
      res.setHeader('Cache-Control', 'no-store');
      return { status: 201, body: await fleet.registerDriver(adminOf(req), body, ports.onRegistered) };
    },
    listDrivers: async ({ query, req }) => ({ status: 200, body: await fleet.listDrivers(adminOf(req).org, query) }),
    getDriver: async ({ params, req }) => ({ status: 200, body: await fleet.getDriver(adminOf(req).org, params.id) }),
    disableDriver: async ({ params, req }) => {
      const driver = await fleet.disableDriver(adminOf(req).org, params.id);
      await ports.passOnOpenOffers(driver.id); // an offer the driver still holds goes to the next nearest driver at once
      return { status: 200, body: driver };
    },
  };
}

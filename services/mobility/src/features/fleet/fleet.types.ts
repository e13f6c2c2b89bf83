import type { Tier } from '../../platform/pricing';

/** The fleet's shapes other features may name; the queries stay in fleet.repository. */
export type FleetKind = 'driver' | 'courier';

export interface Vehicle {
  make: string;
  model: string;
  plate: string;
  color: string;
}

export interface Driver {
  id: string;
  organizationId: string;
  name: string;
  phone: string;
  kind: FleetKind;
  tier: Tier;
  vehicle: Vehicle;
  rating: number;
  available: boolean;
  /** Registered by a platform operator: offered every partner's jobs. Any other driver serves only `organizationId`. */
  servesAllPartners: boolean;
  /** Set when an operator disabled the driver: refused by the driver app, never offered a job. */
  disabledAt: Date | null;
  currentJobId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Which dispatch index a driver is in: its organization's, or the platform's (serving every partner). */
export type DriverIndexEntry = Pick<Driver, 'id' | 'kind' | 'tier' | 'organizationId' | 'servesAllPartners'>;

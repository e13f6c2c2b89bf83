import type { Tier } from '../../pricing';

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
  currentJobId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

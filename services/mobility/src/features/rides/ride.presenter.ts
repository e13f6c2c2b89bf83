import type { Driver, Telemetry } from '../fleet';
import { presentAssignee } from '../jobs';
import { ACTIVE_STATUSES } from './ride-status';
import type { RideRow } from './rides.repository';
import type { z } from 'zod';
import type { rideFareResponse, rideResponse } from './rides.schema';

/** The ride as GET /api/v1/rides/{id} shows it; webhook events carry exactly this. */
export function presentRide(ride: RideRow, driver: Driver | undefined, telemetry: Telemetry | null): RideView {
  const active = ACTIVE_STATUSES.includes(ride.status);
  return {
    id: ride.id,
    status: ride.status,
    tier: ride.tier,
    pickup: { lat: ride.pickup_lat, lng: ride.pickup_lng, address: ride.pickup_address },
    dropoff: { lat: ride.dropoff_lat, lng: ride.dropoff_lng, address: ride.dropoff_address },
    fare: presentFare(ride),
    passenger: { name: ride.passenger_name, phone: ride.passenger_phone },
    driver: presentAssignee(driver),
    // Live position while the driver is on the way or on the trip; not shown before assignment or after the end.
    vehicle_location: active && telemetry ? { lat: telemetry.lat, lng: telemetry.lng, heading: telemetry.heading, updated_at: telemetry.updated_at } : null,
    cancelled_by: ride.cancelled_by,
    estimate_id: ride.estimate_id,
    livemode: ride.livemode,
    sequence: ride.sequence,
    created_at: ride.created_at.toISOString(),
    updated_at: ride.updated_at.toISOString(),
  };
}

/** The fare; a ride with an event pass also shows the part the pass covers and what the rider pays. */
function presentFare(ride: RideRow): z.input<typeof rideFareResponse> {
  const fare = { amount: ride.fare_amount, currency: ride.fare_currency };
  if (ride.pass_covered_amount === null || ride.pass_covered_amount === undefined) return fare;
  return { ...fare, covered_by_pass: ride.pass_covered_amount, rider_pays: ride.fare_amount - ride.pass_covered_amount };
}

/** The ride as answered: its response schema's type, with the `sequence` every answer carries. */
export type RideView = z.input<typeof rideResponse> & { sequence: number };

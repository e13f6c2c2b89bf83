import type { Driver } from '../fleet';
import type { z } from 'zod';
import type { assignedDriverResponse } from './jobs.schema';

/** The driver or courier holding a job, as rides and deliveries show it: contact, rating and vehicle, nothing internal. */
export function presentAssignee(driver: Driver | undefined): z.input<typeof assignedDriverResponse> | null {
  if (!driver) return null;
  return {
    id: driver.id,
    name: driver.name,
    phone: driver.phone,
    rating: driver.rating,
    vehicle: { make: driver.vehicle.make, model: driver.vehicle.model, plate: driver.vehicle.plate, color: driver.vehicle.color },
  };
}

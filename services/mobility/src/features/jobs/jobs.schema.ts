import { z } from 'zod';
import { vehicleResponse } from '../fleet/fleet.schema';

/** What the jobs feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const assignedDriverResponse = z.object({
  id: z.string().regex(/^drv_/),
  name: z.string(),
  phone: z.string(),
  rating: z.number(),
  vehicle: vehicleResponse,
}).meta({ id: 'AssignedDriver' });

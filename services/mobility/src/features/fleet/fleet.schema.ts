import { z } from 'zod';
import { isIdOf } from '@platform/service-kit/ids';
import { pageSchema } from '@platform/service-kit/pagination';
import { phoneSchema } from '../../platform/geo';
import { TIERS } from '../../platform/pricing';
import { dateTime } from '../../platform/schema-types';

/** What the fleet feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

const text = z.string().trim().min(1).max(200);

/** A registration's body (the operator CLI reads the same shape). */
export const registerDriverSchema = z.object({
  name: text,
  phone: phoneSchema,
  kind: z.enum(['driver', 'courier']),
  tier: z.enum(TIERS),
  vehicle: z.object({ make: text, model: text, plate: text, color: text }),
}).meta({
  id: 'NewDriver',
  examples: [{ name: 'Musa Danjuma', phone: '+2348031112222', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LND-123-XY', color: 'Silver' } }],
});

export const driverListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: z.string().refine((value) => isIdOf('drv', value), 'is not a cursor from this list').optional(),
  })
  .meta({ id: 'DriverListQuery', examples: [{ limit: 20 }] });

export const vehicleResponse = z.object({
  make: z.string(),
  model: z.string(),
  plate: z.string(),
  color: z.string(),
}).meta({ id: 'Vehicle' });

/** The driver's own fields, as every answer about a driver gives them; each answer adds its own or describes one more (no component of its own: no `id`). */
const driverFields = z.object({
  id: z.string().regex(/^drv_/),
  name: z.string().optional(),
  phone: z.string().optional(),
  kind: z.enum(['driver', 'courier']).optional(),
  tier: z.string().optional(),
  vehicle: vehicleResponse.optional(),
  rating: z.number().optional(),
  available: z.boolean(),
  status: z.enum(['active', 'disabled']),
  serves_all_partners: z.boolean(),
  disabled_at: dateTime().nullable(),
  created_at: dateTime().optional(),
  updated_at: dateTime().optional(),
});

export const driverProfileResponse = driverFields.extend({
  status: z.enum(['active', 'disabled']).meta({ description: 'A disabled driver is refused by the driver app and never offered a job.' }),
  serves_all_partners: z.boolean().meta({ description: "Registered by a platform operator: offered every partner's jobs. Otherwise only its organization's." }),
}).meta({ id: 'DriverProfile' });

export const activationCodeValueResponse = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/).meta({ id: 'ActivationCodeValue', description: 'A one-time code (Crockford base32, 60 random bits) the driver app exchanges at `POST /driver/v1/sessions`. Shown once;\nonly its SHA-256 is stored.\n', examples: ['K7QF-3M9X-TR2D'] });

export const activationCodeResponse = z.object({
  activation_code: activationCodeValueResponse,
  expires_at: dateTime().meta({ description: '24 hours after issue.' }),
}).meta({ id: 'ActivationCode' });

export const telemetryResponse = z.object({
  lat: z.number(),
  lng: z.number(),
  heading: z.number().nullable(),
  speed_kph: z.number().nullable(),
  updated_at: dateTime(),
}).meta({ id: 'Telemetry' });

export const registeredDriverResponse = driverFields.extend({
  activation_code: activationCodeValueResponse,
  activation_code_expires_at: dateTime().meta({ description: '24 hours after registration.' }),
}).meta({ id: 'RegisteredDriver', description: 'The driver as registered, with its first activation code (shown only in this answer).' });

export const fleetDriverJobResponse = z.object({
  id: z.string(),
  type: z.enum(['ride', 'delivery']),
  status: z.string().nullable().meta({ description: "The job's status." }),
}).meta({ id: 'FleetDriverJob' });

export const fleetDriverResponse = driverFields.extend({
  online: z.boolean().meta({ description: 'The driver app switched the driver online (available) and the driver is not disabled.' }),
  last_seen_at: dateTime().nullable().meta({ description: "The driver's latest location report; null when it never sent one." }),
  current_job: fleetDriverJobResponse.nullable().meta({ description: 'The ride or delivery the driver is on now; null when free.' }),
}).meta({ id: 'FleetDriver', description: 'A driver as the fleet admin sees it, with its presence and the job it is on.' });

export const driverListResponse = pageSchema(fleetDriverResponse, { cursorDescription: 'Pass as `cursor` for the next page.' }).meta({ id: 'DriverList' });


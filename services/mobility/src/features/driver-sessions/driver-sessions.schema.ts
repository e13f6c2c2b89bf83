import { z } from 'zod';
import { driverProfileResponse } from '../fleet/fleet.schema';
import { dateTime } from '../../platform/schema-types';

/** What the driver-sessions feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

/** The bodies the driver app sends: an activation code to sign in, a refresh token to renew the session. */
export const signInSchema = z
  .object({ activation_code: z.string().min(1).max(64) })
  .meta({ id: 'DriverSignIn', examples: [{ activation_code: 'K7QF-3M9X-TR2D' }] });

export const refreshSchema = z
  .object({ refresh_token: z.string().min(1).max(200) })
  .meta({ id: 'DriverSessionRefresh', examples: [{ refresh_token: 'drt_4fQ9sV2mXk8LpR7tW3nB6yC1dZ5hJ0gE2aU9iO4eT7s' }] });

export const driverSessionResponse = z.object({
  access_token: z.string().meta({ description: 'A driver JWT (`sub`, `role`, `sid`, `aud` driver, `iss`, `exp`) for `Authorization: Bearer` on `/driver/v1`.' }),
  token_type: z.enum(['Bearer']),
  expires_in: z.int().min(1).max(3600).meta({ description: 'Seconds the access token is valid (`DRIVER_ACCESS_TOKEN_TTL_S`).' }),
  refresh_token: z.string().regex(/^drt_[0-9A-Za-z]{43}$/).meta({ description: 'Spent by one refresh; stored only as a SHA-256 hash.' }),
  refresh_token_expires_at: dateTime().meta({ description: '`DRIVER_REFRESH_TOKEN_TTL_S` (30 days) after this answer.' }),
  driver: driverProfileResponse,
}).meta({ id: 'DriverSession' });


/**
 * `pnpm platform drivers code`: a fresh one-time sign-in code through the mobility service's driver sign-in feature (the
 * same as `POST /admin/v1/drivers/{id}/activation-codes`); earlier unused codes and the driver's open session end.
 */
import { CommandError } from './cli';
import { withMobility } from './services';

export interface ActivationCode {
  driver_id: string;
  activation_code: string;
  expires_at: string;
}

export async function issueActivationCode(driverId: string): Promise<ActivationCode> {
  try {
    const issued = await withMobility((mobility) => mobility.issueActivationCode(driverId));
    return { driver_id: driverId, ...issued };
  } catch (error) {
    throw new CommandError(error instanceof Error ? error.message : String(error));
  }
}

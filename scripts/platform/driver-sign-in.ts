/**
 * Driver sign-in codes come from driver sign-in (built on another branch): `POST /admin/v1/drivers` will answer
 * `activation_code`, and `POST /admin/v1/drivers/{id}/activation-codes` issues a new one. Until that lands on main, this
 * is the one place `pnpm platform drivers code` calls.
 * TODO(branch `driver-signin`, issue 15 item 2): issue the code through the mobility service's activation-code feature.
 */
import { CommandError } from './cli';

export interface ActivationCode {
  driver_id: string;
  activation_code: string;
  expires_at: string;
}

export async function issueActivationCode(_driverId: string): Promise<ActivationCode> {
  throw new CommandError('driver sign-in not available yet: sign-in codes arrive with driver sign-in; use `pnpm platform token driver <driver-id>` meanwhile');
}

import { adminOf } from '@platform/service-kit/admin-auth';
import { NotFoundError } from '@platform/service-kit/errors';
import type { Handlers } from '@platform/service-kit/operations';
import type { fleetContract } from '../fleet';
import type { driverSessionsContract } from './driver-sessions.contract';
import { isGuessFailure, type DriverSessionService } from './driver-sessions.service';
import type { SignInThrottle } from './signin-throttle';

/** Tokens and codes are never cached: `no-store` is set before the service is asked, so its refusals carry it too. */
const noStore = (res: { setHeader(name: string, value: string): unknown }) => res.setHeader('Cache-Control', 'no-store');

/**
 * `/driver/v1/sessions`: sign in with an activation code (failed guesses are throttled per address), refresh, sign
 * out; and `/admin/v1/drivers/{id}/activation-codes` (a fleet operation): a fresh code for one of the organization's drivers.
 */
export function driverSessionsHandlers(
  sessions: DriverSessionService,
  throttle: SignInThrottle,
): Handlers<typeof driverSessionsContract> & Pick<Handlers<typeof fleetContract>, 'issueDriverActivationCode'> {
  return {
    signInDriver: async ({ body, req, res }) => {
      await throttle.check(req);
      noStore(res);
      try {
        return { status: 201, body: await sessions.signIn(body.activation_code) };
      } catch (error) {
        if (isGuessFailure(error)) await throttle.recordFailure(req);
        throw error;
      }
    },
    refreshDriverSession: async ({ body, res }) => {
      noStore(res);
      return { status: 200, body: await sessions.refresh(body.refresh_token) };
    },
    signOutDriver: async ({ req }) => {
      if (!req.driverSessionId) {
        // An operator-minted token (no `sid`) has no session: it stays valid until its `exp`, or until the driver is disabled.
        throw new NotFoundError('This token was not issued by a sign-in, so it has no session to end');
      }
      await sessions.signOut(req.driverSessionId);
      return { status: 204 };
    },
    issueDriverActivationCode: async ({ params, req, res }) => {
      noStore(res);
      return { status: 201, body: await sessions.issueActivationCode(adminOf(req).org, params.id) };
    },
  };
}

import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@platform/service-kit/errors';
import { bearerToken } from '@platform/service-kit/api-tokens';
import { isIdOf } from '@platform/service-kit/ids';
import { verifyJwt, type JwtSettings } from '@platform/service-kit/admin-auth';
import type { Driver, FleetService } from '../fleet';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      driver?: Driver;
      /** The session (`dss_…`) of a signed-in driver's access token; unset for operator-minted tokens without `sid`. */
      driverSessionId?: string;
    }
  }
}

/** Whether a sign-in session is still open (the driver-sessions feature answers it; wired in app.ts). */
export interface DriverSessionCheck {
  isActive(sessionId: string, driverId: string): Promise<boolean>;
}

/**
 * `/driver/v1` authentication: an HS256 JWT with `aud` driver, our `iss` and an `exp`, whose `sub` is a registered
 * driver's id and `role` is `driver`. The driver is read on every request, so a disabled driver is refused at once.
 * A token from a sign-in carries `sid`, its session: once the session has ended (signed out, refresh token reused,
 * replaced by a new activation code or a sign-in elsewhere) the token is refused on its next request. Tokens without
 * `sid` (minted by an operator with `signDriverToken`, as before sign-in existed) are still accepted until their `exp`.
 */
export function requireDriver(fleet: Pick<FleetService, 'findDriver'>, settings: JwtSettings, sessions?: DriverSessionCheck): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new UnauthorizedError('Missing bearer token', 'missing_token'));
    let claims: { sub?: unknown; role?: unknown; sid?: unknown };
    try {
      claims = verifyJwt(token, settings, 'driver');
    } catch (error) {
      return next(error);
    }
    if (claims.role !== 'driver' || typeof claims.sub !== 'string' || !isIdOf('drv', claims.sub)) {
      return next(new UnauthorizedError('Token is not a driver token', 'invalid_token'));
    }
    const sessionId = claims.sid;
    if (sessionId !== undefined && (typeof sessionId !== 'string' || !isIdOf('dss', sessionId))) {
      return next(new UnauthorizedError('Token names no valid session (sid)', 'invalid_token'));
    }
    const driver = await fleet.findDriver(claims.sub);
    if (!driver) return next(new UnauthorizedError('Unknown driver', 'invalid_token'));
    if (driver.disabledAt) return next(new UnauthorizedError('This driver has been disabled by its operator', 'driver_disabled'));
    if (typeof sessionId === 'string') {
      if (!sessions || !(await sessions.isActive(sessionId, driver.id))) {
        return next(new UnauthorizedError('This session has ended; sign in again', 'session_revoked'));
      }
      req.driverSessionId = sessionId;
    }
    req.driver = driver;
    next();
  };
}

export function currentDriver(req: { driver?: Driver }): Driver {
  if (!req.driver) throw new UnauthorizedError('Missing bearer token', 'missing_token');
  return req.driver;
}

import type { RequestHandler } from 'express';
import { UnauthorizedError, bearerToken, isIdOf, verifyJwt, type JwtSettings } from '@platform/service-kit';
import type { FleetService } from '../fleet/fleet.service';
import type { Driver } from '../fleet/fleet.types';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      driver?: Driver;
    }
  }
}

/**
 * `/driver/v1` authentication: an HS256 JWT with `aud` driver, our `iss` and an `exp`, whose `sub` is a registered
 * driver's id and `role` is `driver`. The driver is read on every request, so a disabled driver is refused at once.
 */
export function requireDriver(fleet: Pick<FleetService, 'findDriver'>, settings: JwtSettings): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new UnauthorizedError('Missing bearer token', 'missing_token'));
    let claims: { sub?: unknown; role?: unknown };
    try {
      claims = verifyJwt(token, settings, 'driver');
    } catch (error) {
      return next(error);
    }
    if (claims.role !== 'driver' || typeof claims.sub !== 'string' || !isIdOf('drv', claims.sub)) {
      return next(new UnauthorizedError('Token is not a driver token', 'invalid_token'));
    }
    const driver = await fleet.findDriver(claims.sub);
    if (!driver) return next(new UnauthorizedError('Unknown driver', 'invalid_token'));
    if (driver.disabledAt) return next(new UnauthorizedError('This driver has been disabled by its operator', 'driver_disabled'));
    req.driver = driver;
    next();
  };
}

export function currentDriver(req: { driver?: Driver }): Driver {
  if (!req.driver) throw new UnauthorizedError('Missing bearer token', 'missing_token');
  return req.driver;
}

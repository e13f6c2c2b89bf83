import type { RequestHandler } from 'express';
import { UnauthorizedError, bearerToken, isIdOf, verifyJwt } from '@platform/service-kit';
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

/** `/driver/v1` authentication: an HS256 JWT whose `sub` is a registered driver's id and `role` is `driver`. */
export function requireDriver(fleet: Pick<FleetService, 'findDriver'>, secret: string): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new UnauthorizedError('Missing bearer token', 'missing_token'));
    let claims: { sub?: unknown; role?: unknown };
    try {
      claims = verifyJwt(token, secret);
    } catch {
      return next(new UnauthorizedError('Invalid or expired token', 'invalid_token'));
    }
    if (claims.role !== 'driver' || typeof claims.sub !== 'string' || !isIdOf('drv', claims.sub)) {
      return next(new UnauthorizedError('Token is not a driver token', 'invalid_token'));
    }
    const driver = await fleet.findDriver(claims.sub);
    if (!driver) return next(new UnauthorizedError('Unknown driver', 'invalid_token'));
    req.driver = driver;
    next();
  };
}

export function currentDriver(req: { driver?: Driver }): Driver {
  if (!req.driver) throw new UnauthorizedError('Missing bearer token', 'missing_token');
  return req.driver;
}

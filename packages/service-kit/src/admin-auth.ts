import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { NextFunction, Request, Response } from 'express';
import { bearerToken } from './api-tokens';
import { ForbiddenError, UnauthorizedError } from './errors';

export const adminClaimsSchema = z.object({
  sub: z.string().min(1).max(200),
  org: z.string().min(1).max(200),
  org_name: z.string().max(200).optional(),
  role: z.enum(['owner', 'member', 'operator']),
});

export type AdminClaims = z.infer<typeof adminClaimsSchema>;

/** Verifies an HS256 JWT (no other algorithm is accepted) and returns its payload. */
export function verifyJwt(token: string, secret: string): jwt.JwtPayload {
  const payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
  if (typeof payload === 'string') throw new Error('unexpected string payload');
  return payload;
}

export function signJwt(claims: Record<string, unknown>, secret: string, expiresIn: jwt.SignOptions['expiresIn'] = '1h'): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn });
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      admin?: AdminClaims;
    }
  }
}

/** `/admin/v1` authentication: a dashboard JWT whose claims name the user, organization and role. */
export function requireAdmin(secret: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new UnauthorizedError('Missing bearer token', 'missing_token'));
    let payload: jwt.JwtPayload;
    try {
      payload = verifyJwt(token, secret);
    } catch {
      return next(new UnauthorizedError('Invalid or expired token', 'invalid_token'));
    }
    const claims = adminClaimsSchema.safeParse(payload);
    if (!claims.success) return next(new UnauthorizedError('Token is missing required claims (sub, org, role)', 'invalid_token'));
    req.admin = claims.data;
    next();
  };
}

export function requireRole(...roles: AdminClaims['role'][]) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.admin || !roles.includes(req.admin.role)) {
      return next(new ForbiddenError(`This action needs the ${roles.join(' or ')} role`, 'insufficient_role'));
    }
    next();
  };
}

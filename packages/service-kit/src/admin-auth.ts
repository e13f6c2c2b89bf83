import jwt from 'jsonwebtoken';
import { z } from 'zod';
import type { NextFunction, Request, Response } from 'express';
import { bearerToken } from './api-tokens';
import { env } from './config';
import { ForbiddenError, UnauthorizedError } from './errors';
import { hasForbiddenControlCharacter } from './validation';

/** `iss` every token must carry unless `JWT_ISSUER` names another issuer. */
export const DEFAULT_JWT_ISSUER = 'partner-platform';
/** Longest lifetime an admin (dashboard) token may have: 12 hours unless `ADMIN_TOKEN_MAX_TTL_S` says otherwise. */
export const DEFAULT_ADMIN_TOKEN_MAX_TTL_S = 12 * 60 * 60;
/** Clock difference tolerated between the token's issuer and this process. */
const CLOCK_TOLERANCE_S = 30;

/** `aud` separates the two kinds of token: an admin token is refused by the driver app and the reverse. */
export type TokenAudience = 'admin' | 'driver';

export interface JwtSettings {
  secret: string;
  issuer: string;
}

export interface AdminTokenSettings extends JwtSettings {
  maxTtlSeconds: number;
}

/** The token settings both services read from their environment. */
export const jwtSettingsConfig = {
  JWT_ISSUER: z.string().trim().min(1, 'must not be empty').max(200).default(DEFAULT_JWT_ISSUER),
  ADMIN_TOKEN_MAX_TTL_S: env.positiveInt(DEFAULT_ADMIN_TOKEN_MAX_TTL_S),
};

export function adminTokenSettings(config: { JWT_SECRET: string; JWT_ISSUER: string; ADMIN_TOKEN_MAX_TTL_S: number }): AdminTokenSettings {
  return { secret: config.JWT_SECRET, issuer: config.JWT_ISSUER, maxTtlSeconds: config.ADMIN_TOKEN_MAX_TTL_S };
}

const claimText = (max: number) => z.string().min(1).max(max).refine((text) => !hasForbiddenControlCharacter(text), 'must not contain control characters');

export const ADMIN_ROLES = ['owner', 'member', 'operator', 'platform_operator'] as const;

/**
 * Dashboard claims. `platform_operator` runs the platform's own fleet: drivers it registers serve every partner; the
 * other roles act only within their organization.
 */
export const adminClaimsSchema = z.object({
  sub: claimText(200),
  org: claimText(200),
  org_name: claimText(200).optional(),
  role: z.enum(ADMIN_ROLES),
  /** The dashboard sign-in (refresh-session family) a token belongs to; operator tokens minted by the CLI have none. */
  sid: claimText(200).optional(),
});

export type AdminClaims = z.infer<typeof adminClaimsSchema>;

/**
 * Verifies an HS256 JWT (no other algorithm is accepted) for one audience and issuer and returns its payload. A token
 * without `exp` never expires, so it is refused; so is one whose `aud` is not exactly this audience.
 */
export function verifyJwt(token: string, settings: JwtSettings, audience: TokenAudience): jwt.JwtPayload {
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, settings.secret, { algorithms: ['HS256'], issuer: settings.issuer, clockTolerance: CLOCK_TOLERANCE_S });
  } catch (error) {
    throw new UnauthorizedError(refusalMessage(error), 'invalid_token');
  }
  if (typeof payload === 'string') throw new UnauthorizedError('Invalid token', 'invalid_token');
  if (typeof payload.exp !== 'number') throw new UnauthorizedError('Token has no expiry (exp)', 'invalid_token');
  if (payload.aud !== audience) throw new UnauthorizedError(`Token is not meant for this API (aud must be "${audience}")`, 'invalid_token');
  return payload;
}

function refusalMessage(error: unknown): string {
  if (error instanceof jwt.TokenExpiredError) return 'Token has expired';
  if (error instanceof jwt.NotBeforeError) return 'Token is not valid yet';
  if (error instanceof jwt.JsonWebTokenError && error.message.startsWith('jwt issuer invalid')) return 'Token issuer (iss) is not accepted';
  return 'Invalid or expired token';
}

/** An admin token lives at most `maxTtlSeconds`: counted from `iat` when present, and never further ahead than that from now. */
function refuseLongLivedToken(payload: jwt.JwtPayload, maxTtlSeconds: number): void {
  const exp = payload.exp!;
  const now = Math.floor(Date.now() / 1000);
  const tooLong = (typeof payload.iat === 'number' && exp - payload.iat > maxTtlSeconds) || exp - now > maxTtlSeconds + CLOCK_TOLERANCE_S;
  if (tooLong) throw new UnauthorizedError(`Admin token lifetime exceeds ${maxTtlSeconds} seconds`, 'invalid_token');
}

export interface SignOptions {
  issuer?: string;
  ttlSeconds?: number;
}

/** Signs exactly `payload` (HS256); the caller sets every claim. Tests use it to build tokens the services must refuse. */
export function signJwt(payload: Record<string, unknown>, secret: string): string {
  return jwt.sign(payload, secret, { algorithm: 'HS256' });
}

/** A dashboard token: `aud` admin, `iss` and `exp` set (1 hour by default). */
export function signAdminToken(claims: AdminClaims, secret: string, options: SignOptions = {}): string {
  return signFor('admin', { ...claims }, secret, options);
}

/** A driver app token: `sub` the driver id, `role` driver, `aud` driver, `iss` and `exp` set (1 hour by default). */
export function signDriverToken(driverId: string, secret: string, options: SignOptions = {}): string {
  return signFor('driver', { sub: driverId, role: 'driver' }, secret, options);
}

function signFor(audience: TokenAudience, claims: Record<string, unknown>, secret: string, options: SignOptions): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', audience, issuer: options.issuer ?? DEFAULT_JWT_ISSUER, expiresIn: options.ttlSeconds ?? 3600 });
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      admin?: AdminClaims;
    }
  }
}

/** The signed-in admin of a request behind `requireAdmin` (a route mounted elsewhere is a wiring bug, not a 401). */
export function adminOf(req: Request): AdminClaims {
  if (!req.admin) throw new Error('adminOf(req) on a route not behind requireAdmin');
  return req.admin;
}

/** `/admin/v1` authentication: a dashboard JWT (aud admin, our issuer, short-lived) whose claims name the user, organization and role. */
export function requireAdmin(settings: AdminTokenSettings) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(new UnauthorizedError('Missing bearer token', 'missing_token'));
    let payload: jwt.JwtPayload;
    try {
      payload = verifyJwt(token, settings, 'admin');
      refuseLongLivedToken(payload, settings.maxTtlSeconds);
    } catch (error) {
      return next(error);
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

import type { IncomingMessage } from 'node:http';
import { adminClaimsSchema, verifyJwt, type AdminClaims, type AdminTokenSettings } from '@platform/service-kit/admin-auth';
import { ApiError } from '@platform/service-kit/errors';
import { bearerToken } from '@platform/service-kit/api-tokens';

/** A dashboard token's claims once verified: `sid` names its sign-in (the refresh-session family). */
export type DashboardClaims = AdminClaims & { sid: string };

export type DashboardTokenCheck = { ok: true; claims: DashboardClaims } | { ok: false; refusal: { error: string; code: string } };

/**
 * The dashboard's admin prefixes are proxied only with a valid admin token (HS256, `aud` admin, our issuer, `exp` at
 * most `maxTtlSeconds` ahead, claims `sub`, `org`, `role`) that names its sign-in (`sid`, checked live before proxying);
 * anything else is refused here, before the service sees it. A token without `sid` (one signed with `JWT_SECRET` by an
 * operator or a script, never the dashboard's) is 401 `session_required`: it could not be ended by signing out.
 */
export function checkDashboardToken(req: IncomingMessage, settings: AdminTokenSettings): DashboardTokenCheck {
  const header = req.headers.authorization;
  const token = bearerToken(typeof header === 'string' ? header : undefined);
  if (!token) return refused('Missing bearer token', 'missing_token');
  try {
    const payload = verifyJwt(token, settings, 'admin');
    const now = Math.floor(Date.now() / 1000);
    const lifetime = typeof payload.iat === 'number' ? payload.exp! - payload.iat : payload.exp! - now;
    if (lifetime > settings.maxTtlSeconds || payload.exp! - now > settings.maxTtlSeconds + 30) {
      return refused(`Admin token lifetime exceeds ${settings.maxTtlSeconds} seconds`, 'invalid_token');
    }
    const claims = adminClaimsSchema.safeParse(payload);
    if (!claims.success) return refused('Token is missing required claims (sub, org, role)', 'invalid_token');
    const { sid } = claims.data;
    if (sid === undefined) return refused('This token names no sign-in; sign in again', 'session_required');
    return { ok: true, claims: { ...claims.data, sid } };
  } catch (error) {
    if (error instanceof ApiError) return refused(error.message, error.code);
    return refused('Invalid or expired token', 'invalid_token');
  }
}

function refused(error: string, code: string): DashboardTokenCheck {
  return { ok: false, refusal: { error, code } };
}

/** Whether a token is a JWT our secret signed for the driver app or the dashboard, with our issuer, not expired. */
export function signedJwtCheck(settings: AdminTokenSettings): (token: string) => boolean {
  return (token) => {
    for (const audience of ['driver', 'admin'] as const) {
      try {
        verifyJwt(token, settings, audience);
        return true;
      } catch {
        // the other audience, or not ours
      }
    }
    return false;
  };
}

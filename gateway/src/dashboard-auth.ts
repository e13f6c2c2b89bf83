import type { IncomingMessage } from 'node:http';
import { adminClaimsSchema, ApiError, bearerToken, verifyJwt, type AdminTokenSettings } from '@platform/service-kit';

/**
 * The dashboard's admin prefixes are proxied only with a valid admin token (HS256, `aud` admin, our issuer, `exp` at
 * most `maxTtlSeconds` ahead, claims `sub`, `org`, `role`); anything else is refused here, before the service sees it.
 * Returns null when the token is good, else the 401 to answer.
 */
export function dashboardTokenRefusal(req: IncomingMessage, settings: AdminTokenSettings): { error: string; code: string } | null {
  const header = req.headers.authorization;
  const token = bearerToken(typeof header === 'string' ? header : undefined);
  if (!token) return { error: 'Missing bearer token', code: 'missing_token' };
  try {
    const payload = verifyJwt(token, settings, 'admin');
    const now = Math.floor(Date.now() / 1000);
    const lifetime = typeof payload.iat === 'number' ? payload.exp! - payload.iat : payload.exp! - now;
    if (lifetime > settings.maxTtlSeconds || payload.exp! - now > settings.maxTtlSeconds + 30) {
      return { error: `Admin token lifetime exceeds ${settings.maxTtlSeconds} seconds`, code: 'invalid_token' };
    }
    if (!adminClaimsSchema.safeParse(payload).success) return { error: 'Token is missing required claims (sub, org, role)', code: 'invalid_token' };
    return null;
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message, code: error.code };
    return { error: 'Invalid or expired token', code: 'invalid_token' };
  }
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

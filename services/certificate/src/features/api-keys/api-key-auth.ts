import { UnauthorizedError, bearerToken, isWellFormedApiToken } from '@platform/service-kit';
import type { Request } from 'express';
import { CERTIFICATE_TOKEN_PREFIX } from './api-keys.service';

export const INVALID_KEY_MESSAGE = 'Invalid or revoked API key';

/**
 * The token of a public API request, refused before any database work when missing or malformed (the checksum
 * catches typos). Whether it is active is for the query that uses it: one round trip per request.
 */
export function wellFormedTokenOf(req: Request): string {
  const header = req.headers.authorization;
  if (!header) throw new UnauthorizedError('Missing API key', 'missing_api_key');
  const token = bearerToken(header);
  if (!token || !isWellFormedApiToken(token, CERTIFICATE_TOKEN_PREFIX)) throw invalidKey();
  return token;
}

export function invalidKey(): UnauthorizedError {
  return new UnauthorizedError(INVALID_KEY_MESSAGE, 'invalid_api_key');
}

import type { RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError, bearerToken } from '@platform/service-kit';
import type { ApiKeyPrincipal, ApiKeyService, Scope } from './api-keys.service';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      apiKey?: ApiKeyPrincipal;
    }
  }
}

/** Public API authentication: `Authorization: Bearer <token>` or `X-API-KEY: <token>`. */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return async (req, _res, next) => {
    const header = req.headers['x-api-key'];
    const token = bearerToken(req.headers.authorization) ?? (typeof header === 'string' && header.trim() ? header.trim() : undefined);
    if (!token) return next(new UnauthorizedError('Missing API key', 'missing_api_key'));
    const principal = await service.authenticate(token);
    if (!principal) return next(new UnauthorizedError('Invalid or revoked API key', 'invalid_api_key'));
    req.apiKey = principal;
    next();
  };
}

export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!req.apiKey?.scopes.includes(scope)) return next(new ForbiddenError(`Missing required scope: ${scope}`, 'insufficient_scope'));
    next();
  };
}

/** The authenticated partner's id; only call behind `requireApiKey`. */
export function partnerIdOf(req: { apiKey?: ApiKeyPrincipal }): string {
  if (!req.apiKey) throw new UnauthorizedError('Missing API key', 'missing_api_key');
  return req.apiKey.organizationId;
}

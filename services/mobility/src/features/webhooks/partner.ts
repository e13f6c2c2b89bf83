import type { Request, RequestHandler } from 'express';
import { UnauthorizedError } from '@platform/service-kit';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The partner (organization) the request acts for, set by the authentication in front of the routes. */
      partnerId?: string;
    }
  }
}

/** The partner a webhook route acts for. When mobility API keys land this becomes `req.apiKey.organizationId`. */
export function partnerIdOf(req: Request): string {
  if (!req.partnerId) throw new UnauthorizedError('Missing API key', 'missing_api_key');
  return req.partnerId;
}

/**
 * PLACEHOLDER for mobility API-key authentication (built on another branch): until it is merged, the webhook
 * routes refuse every request as unauthenticated. On merge, replace this with the key middleware plus the
 * `webhooks:manage` scope check, and make `partnerIdOf` read the key's organization.
 */
export function webhooksAuthPlaceholder(): RequestHandler {
  return (_req, _res, next) => next(new UnauthorizedError('Missing API key', 'missing_api_key'));
}

import type { RequestHandler } from 'express';
import { ForbiddenError } from '@platform/service-kit/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request refusal for the cookie-carrying account routes: every state-changing request names one of the
 * dashboard's own origins in `Origin` (browsers always send it on such requests), else 403 `origin_not_allowed`.
 */
export function requireDashboardOrigin(allowed: readonly string[]): RequestHandler {
  const origins = new Set(allowed);
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origins.has(origin)) return next();
    next(new ForbiddenError('This request must come from the dashboard (Origin not allowed)', 'origin_not_allowed'));
  };
}

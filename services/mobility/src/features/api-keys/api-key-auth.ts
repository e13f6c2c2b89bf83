import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { ForbiddenError } from '@platform/service-kit';
import { presentedToken as sharedPresentedToken, principalOf, requireApiKey as sharedRequireApiKey, requireScope as sharedRequireScope, type ApiKeyService } from '@platform/api-keys';
import type { Scope } from './api-keys';

/** Mobility reads `Authorization: Bearer <token>` first, else `X-API-KEY: <token>`. */
const AUTH_OPTIONS = { acceptXApiKeyHeader: true };

/** Public API authentication: `Authorization: Bearer <token>` first, else `X-API-KEY: <token>`. */
export function requireApiKey(service: ApiKeyService): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), AUTH_OPTIONS);
}

export function requireScope(scope: Scope): RequestHandler {
  return sharedRequireScope(scope);
}

/**
 * The token a request presents, read as `requireApiKey` reads it, for the fast lanes; undefined when there is none
 * (the lanes then leave the request to Express and its 401).
 */
export function presentedToken(req: IncomingMessage): string | undefined {
  return sharedPresentedToken(req, AUTH_OPTIONS) ?? undefined;
}

/** The authenticated partner's id; only call behind `requireApiKey`. */
export function partnerIdOf(req: Parameters<typeof principalOf>[0]): string {
  return principalOf(req).organizationId;
}

/** The owner of everything a request creates or sees: the key's partner, in the key's mode (live or test data). */
export interface PartnerAccount {
  partnerId: string;
  livemode: boolean;
}

/** The authenticated key's partner and mode; only call behind `requireApiKey`. */
export function accountOf(req: Parameters<typeof principalOf>[0]): PartnerAccount {
  const principal = principalOf(req);
  return { partnerId: principal.organizationId, livemode: principal.livemode };
}

/** 403 `livemode_key_not_allowed` unless the request's key is a test-mode key (`mk_test_…`): the sandbox moves test data only. */
export function requireTestKey(): RequestHandler {
  return (req, _res, next) => {
    if (principalOf(req).livemode) {
      return next(new ForbiddenError('The sandbox needs a test-mode key (mk_test_…); live keys cannot move jobs', 'livemode_key_not_allowed'));
    }
    next();
  };
}

/** 403 `test_mode_not_supported` for a test-mode key, on features that have no test data (event passes). */
export function requireLiveKey(feature: string): RequestHandler {
  return (req, _res, next) => {
    if (!principalOf(req).livemode) return next(new ForbiddenError(`${feature} have no test mode; use a live key`, 'test_mode_not_supported'));
    next();
  };
}

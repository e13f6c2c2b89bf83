import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import type { MinuteBudget } from '@platform/service-kit/minute-budget';
import { presentedToken as sharedPresentedToken, principalOf, requireApiKey as sharedRequireApiKey, type ApiKeyService } from '@platform/api-keys';

/** Mobility reads `Authorization: Bearer <token>` first, else `X-API-KEY: <token>`. */
const AUTH_OPTIONS = { acceptXApiKeyHeader: true };

/** Public API authentication: `Authorization: Bearer <token>` first, else `X-API-KEY: <token>`; an accepted key spends its organization's budget. */
export function requireApiKey(service: ApiKeyService, organizations?: MinuteBudget): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { ...AUTH_OPTIONS, organizations });
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


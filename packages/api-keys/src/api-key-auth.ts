import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ForbiddenError, UnauthorizedError } from '@platform/service-kit/errors';
import { bearerToken } from '@platform/service-kit/api-tokens';
import { noteApiKey } from '@platform/service-kit/request-log';
import type { MinuteBudget, MinuteVerdict } from '@platform/service-kit/minute-budget';
import type { ApiKeyPrincipal } from './api-key-principal';
import { OrganizationRateLimitError } from './organization-budget';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      apiKey?: ApiKeyPrincipal;
    }
  }
}

export const MISSING_KEY_MESSAGE = 'Missing API key';
export const INVALID_KEY_MESSAGE = 'Invalid or revoked API key';

export interface ApiKeyAuthOptions {
  /** Also read `X-API-KEY: <token>` when there is no Bearer token (mobility); certificate reads the Bearer header only. */
  acceptXApiKeyHeader: boolean;
  /** Spent once per accepted key, by its organization (`organizationBudget`): 429 `rate_limited` once it is spent. */
  organizations?: MinuteBudget;
}

/**
 * The token a request presents, `undefined` when it presents none, `null` when it presents one in an unusable form.
 * Reads headers only, so a fast lane in front of Express reads a token exactly as `requireApiKey` does.
 */
export function presentedToken(req: Pick<IncomingMessage, 'headers'>, { acceptXApiKeyHeader }: ApiKeyAuthOptions): string | undefined | null {
  const authorization = req.headers.authorization;
  const bearer = bearerToken(authorization);
  if (bearer) return bearer;
  if (acceptXApiKeyHeader) {
    const header = req.headers['x-api-key'];
    return typeof header === 'string' && header.trim() ? header.trim() : undefined;
  }
  return authorization ? null : undefined;
}

/**
 * Public API authentication: 401 `Missing API key` without a token, 401 `Invalid or revoked API key` for a malformed,
 * unknown, revoked, expired or rotated-away one (the same text, so a caller learns nothing about which). All checks
 * happen in `authenticate`, so a per-process cache can sit behind it later. An accepted key spends one request of its
 * organization's budget (`options.organizations`): over it, 429 `rate_limited` with `Retry-After`.
 */
export function requireApiKey(authenticate: (token: string) => Promise<ApiKeyPrincipal | undefined>, options: ApiKeyAuthOptions): RequestHandler {
  return async (req, res, next) => {
    const token = presentedToken(req, options);
    if (token === undefined) return next(new UnauthorizedError(MISSING_KEY_MESSAGE, 'missing_api_key', { 'WWW-Authenticate': 'Bearer' }));
    const principal = token === null ? undefined : await authenticate(token);
    if (!principal) return next(new UnauthorizedError(INVALID_KEY_MESSAGE, 'invalid_api_key', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }));
    req.apiKey = principal;
    noteApiKey(res, principal.keyId);
    if (options.organizations) {
      const verdict = spendOrganizationBudget(req, options.organizations, principal.organizationId);
      const retryAfter = verdict instanceof Promise ? await verdict : verdict;
      if (retryAfter !== undefined) return next(new OrganizationRateLimitError(retryAfter));
    }
    next();
  };
}

const ORGANIZATION_VERDICT = Symbol('organization budget verdict');

type SpendingRequest = IncomingMessage & { [ORGANIZATION_VERDICT]?: { retryAfter: MinuteVerdict } };

/**
 * Spends a request's one hit of its key's organization budget, once per request: a fast lane that spent it and then
 * leaves the request to Express (an unknown code's 404, a refusal's 429) is not counted twice. Undefined when the
 * request may go on, else the seconds to wait.
 */
export function spendOrganizationBudget(req: IncomingMessage, budget: MinuteBudget, organizationId: string): MinuteVerdict | Promise<MinuteVerdict> {
  const spending = req as SpendingRequest;
  const earlier = spending[ORGANIZATION_VERDICT];
  if (earlier) return earlier.retryAfter;
  const note = (retryAfter: MinuteVerdict) => {
    spending[ORGANIZATION_VERDICT] = { retryAfter };
    return retryAfter;
  };
  const verdict = budget.spend(organizationId);
  return verdict instanceof Promise ? verdict.then(note) : note(verdict);
}

/** The header naming the scope an endpoint needs on its 403 (as GitHub's `X-Accepted-OAuth-Scopes` does). */
export const ACCEPTED_SCOPES_HEADER = 'X-Accepted-Scopes';

/**
 * 403 `Missing required scope: <scope>` unless the request's key carries the scope; the answer names the scope in
 * `X-Accepted-Scopes` and in the RFC 6750 challenge, so a program can tell which scope to ask for.
 */
export function requireScope(scope: string): RequestHandler {
  return (req, _res, next) => {
    if (!req.apiKey?.scopes.includes(scope)) {
      return next(
        new ForbiddenError(`Missing required scope: ${scope}`, 'insufficient_scope', {
          [ACCEPTED_SCOPES_HEADER]: scope,
          'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
        }),
      );
    }
    next();
  };
}

/** The authenticated key's principal; only call behind `requireApiKey`. */
export function principalOf(req: { apiKey?: ApiKeyPrincipal }): ApiKeyPrincipal {
  if (!req.apiKey) throw new UnauthorizedError(MISSING_KEY_MESSAGE, 'missing_api_key');
  return req.apiKey;
}

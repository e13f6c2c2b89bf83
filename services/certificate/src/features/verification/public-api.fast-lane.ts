import type { IncomingMessage, RequestListener } from 'node:http';
import { spendOrganizationBudget, type ApiKeyService } from '@platform/api-keys';
import { answerWithEtag, fastLane, type FastLaneAnswer } from '@platform/service-kit/fast-lane';
import { bearerToken } from '@platform/service-kit/api-tokens';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import type { MinuteBudget } from '@platform/service-kit/minute-budget';
import { normalizeVerificationCode } from '../certificates';
import { isFound, type PublicApiRepository } from './public-api.repository';
import { creditsView, verificationView } from './public-api.presenter';

export interface PublicApiFastLaneDeps {
  apiKeys: ApiKeyService;
  publicApi: PublicApiRepository;
  /** The organizations' request budget the API-key guard spends (a request is counted once, here or there). */
  organizations: MinuteBudget;
  logger: Logger;
  metrics: Metrics;
}

const VERIFY_PREFIX = '/api/v1/verify/';
const VERIFY_ROUTE = '/api/v1/verify/:code';
const CREDITS_ROUTE = '/api/v1/credits';

/**
 * The partner API's two hot reads, `GET /api/v1/verify/{code}` and `GET /api/v1/credits`, answered without Express:
 * the same key check (the per-process cache) and organization budget (spent: 429 by Express), the same query and the same bytes, headers, request log line and metrics
 * as the Express routes, at a fraction of the CPU. Only a successful answer (200, or 304 to a matching If-None-Match)
 * is written here; everything else (no or bad key, unknown code, a query string, HEAD, ...) reaches `app` untouched,
 * before anything is written, and Express answers it as always; a failed lookup (a database error) goes to the app's
 * error handler with its error.
 */
export function publicApiFastLane(deps: PublicApiFastLaneDeps, app: RequestListener): RequestListener {
  return fastLane(deps, { eligible, route: (target) => (target.kind === 'credits' ? CREDITS_ROUTE : VERIFY_ROUTE), answer: (req, target, accepted) => answer(deps, req, target, accepted) }, app);
}

type Target = { kind: 'credits' } | { kind: 'verify'; code: string };

/** The requests the lane may answer: GET of exactly one of the two paths, no query string, a Bearer token. */
function eligible(req: IncomingMessage): Target | undefined {
  if (req.method !== 'GET' || !bearerToken(req.headers.authorization)) return undefined;
  const url = req.url ?? '';
  if (url === CREDITS_ROUTE) {
    // Express's freshness check could turn these into a 304 without an ETag; leave them to it.
    if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) return undefined;
    return { kind: 'credits' };
  }
  if (!url.startsWith(VERIFY_PREFIX) || req.headers['if-modified-since'] !== undefined) return undefined;
  const code = url.slice(VERIFY_PREFIX.length);
  // `?`, `#`, `/` (trailing slash, deeper paths) and `%` (percent-decoding and its 400) stay with Express's router.
  if (code === '' || /[?#/%]/.test(code)) return undefined;
  return { kind: 'verify', code };
}

/** `accepted` learns the key once it is accepted, for the log line of an error handed over after that. */
async function answer({ apiKeys, publicApi, organizations }: PublicApiFastLaneDeps, req: IncomingMessage, target: Target, accepted: { apiKeyId?: string }): Promise<FastLaneAnswer | undefined> {
  const principal = await apiKeys.authenticate(bearerToken(req.headers.authorization)!);
  if (!principal) return undefined;
  const spent = spendOrganizationBudget(req, organizations, principal.organizationId);
  if ((spent instanceof Promise ? await spent : spent) !== undefined) return undefined;
  accepted.apiKeyId = principal.keyId;
  if (target.kind === 'credits') {
    const row = await publicApi.credits(principal.organizationId, principal.keyId);
    if (!row) return undefined;
    const body = JSON.stringify(creditsView(row, principal.livemode));
    return { status: 200, route: CREDITS_ROUTE, apiKeyId: principal.keyId, body };
  }
  const row = await publicApi.verification(principal.organizationId, normalizeVerificationCode(target.code));
  if (!row || !isFound(row)) return undefined;
  return answerWithEtag(req, { route: VERIFY_ROUTE, apiKeyId: principal.keyId }, verificationView(row));
}

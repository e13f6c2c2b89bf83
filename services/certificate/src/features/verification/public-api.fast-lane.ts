import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ApiKeyPrincipal, ApiKeyService } from '@platform/api-keys';
import { bearerToken, etagOf, helmetHeaders, matchesIfNoneMatch, requestIdFor, startRequestSpan, type Logger, type Metrics } from '@platform/service-kit';
import { normalizeVerificationCode } from '../certificates/verification-code';
import type { PublicApiRepository } from './public-api.repository';
import { creditsView, verificationView } from './public-api.views';

export interface PublicApiFastLaneDeps {
  apiKeys: ApiKeyService;
  publicApi: PublicApiRepository;
  logger: Logger;
  metrics: Metrics;
}

const VERIFY_PREFIX = '/api/v1/verify/';
const VERIFY_ROUTE = '/api/v1/verify/:code';
const CREDITS_ROUTE = '/api/v1/credits';
const JSON_TYPE = 'application/json; charset=utf-8';

interface Answer {
  status: 200 | 304;
  route: string;
  principal: ApiKeyPrincipal;
  etag?: string;
  body?: string;
}

/**
 * The partner API's two hot reads, `GET /api/v1/verify/{code}` and `GET /api/v1/credits`, answered without Express:
 * the same key check (the per-process cache), the same query and the same bytes, headers, request log line and metrics
 * as the Express routes, at a fraction of the CPU. Only a successful answer (200, or 304 to a matching If-None-Match)
 * is written here; everything else (no or bad key, unknown code, a query string, HEAD, a database error, ...) reaches
 * `app` untouched, before anything is written, and Express answers it as always.
 */
export function publicApiFastLane(deps: PublicApiFastLaneDeps, app: RequestListener): RequestListener {
  const security = Object.entries(helmetHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  return (req, res) => {
    const start = process.hrtime.bigint();
    const target = eligible(req);
    if (!target) return app(req, res);
    answer(deps, req, target).then(
      (result) => (result ? send(deps, req, res, result, start, security) : app(req, res)),
      () => app(req, res), // a failed lookup: Express runs it again and answers (and logs) the error as always
    );
  };
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

async function answer({ apiKeys, publicApi }: PublicApiFastLaneDeps, req: IncomingMessage, target: Target): Promise<Answer | undefined> {
  const principal = await apiKeys.authenticate(bearerToken(req.headers.authorization)!);
  if (!principal) return undefined;
  if (target.kind === 'credits') {
    const row = await publicApi.credits(principal.organizationId, principal.keyId);
    if (!row) return undefined;
    const body = JSON.stringify(creditsView(row));
    return { status: 200, route: CREDITS_ROUTE, principal, body };
  }
  const row = await publicApi.verification(principal.organizationId, normalizeVerificationCode(target.code));
  if (!row?.certificate_id) return undefined;
  const body = JSON.stringify(verificationView(row));
  const etag = etagOf(body);
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) return { status: 304, route: VERIFY_ROUTE, principal, etag };
  return { status: 200, route: VERIFY_ROUTE, principal, etag, body };
}

function send(
  { logger, metrics }: PublicApiFastLaneDeps,
  req: IncomingMessage,
  res: ServerResponse,
  result: Answer,
  start: bigint,
  security: [string, string][],
): void {
  // What requestContext, requestLogger, securityHeaders and the metrics middleware do on the Express path, in that order.
  const requestId = requestIdFor(req);
  req.headers['x-request-id'] = requestId;
  res.setHeader('X-Request-Id', requestId);
  const span = startRequestSpan(req);
  if (span.recording) res.once('close', () => span.end({ statusCode: res.headersSent ? res.statusCode : null, route: result.route }));
  let logged = false;
  const log = () => {
    if (logged) return;
    logged = true;
    const line: Record<string, unknown> = {
      request_id: requestId,
      trace_id: span.context.traceId,
      method: req.method,
      route: result.route,
      status: res.headersSent ? res.statusCode : 499,
      duration_ms: Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10,
      api_key_id: result.principal.keyId,
    };
    if (!res.writableFinished) line.aborted = true;
    logger.info(line, 'request');
  };
  res.once('finish', log);
  res.once('close', log);
  for (const [name, value] of security) res.setHeader(name, value);
  res.once('finish', () => metrics.observe(req.method!, result.route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9));
  if (result.etag) res.setHeader('ETag', result.etag);
  res.statusCode = result.status;
  if (result.body === undefined) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(result.body));
  res.end(result.body);
}

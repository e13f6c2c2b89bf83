import type { IncomingMessage, RequestListener } from 'node:http';
import type { ApiKeyService } from '@platform/api-keys';
import { fastLane, type FastLaneAnswer } from '@platform/service-kit/fast-lane';
import { handOverBody, parseStrictJson } from '@platform/service-kit/json-app';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import { presentedToken, requiredScope } from '../api-keys';
import { operationOf } from '../../platform/route-lookup';
import { estimatesContract } from './estimates.contract';
import { estimateSchema } from './estimates.schema';
import type { EstimateService } from './estimates.service';

export interface EstimatesFastLaneDeps {
  apiKeys: ApiKeyService;
  estimates: EstimateService;
  logger: Logger;
  metrics: Metrics;
}

const CREATE_ESTIMATE = operationOf(estimatesContract, 'createEstimate');
const ESTIMATES_PATH = CREATE_ESTIMATE.path;
/** The route's pattern as the log line and metrics of the operation's Express route name it: the table's path, mounted as is. */
const ESTIMATES_ROUTE = ESTIMATES_PATH;
const REQUIRED_SCOPE = requiredScope(CREATE_ESTIMATE);
/** Larger bodies (an estimate's is about 80 bytes) stay with Express and its 100 kB limit. */
const MAX_FAST_BODY_BYTES = 8192;

/**
 * `POST /api/v1/estimates`, the partner API's hottest write, answered without Express when it succeeds: the same key
 * check (the per-process cache), scope, schema, fares, GEOSEARCH and insert, and the same bytes, headers, request log
 * line and metrics as the Express route. Whatever is not a plain success (no or bad key, missing scope, an unusual
 * body or content type, bad JSON, a failed validation) goes to `app` before anything is written; once the body has
 * been read, its bytes go along (`handOverBody`). A step that fails (a trip over the limit, a Redis or Postgres
 * error) goes to the app's error handler with its error (service-kit `fastLane`).
 */
export function estimatesFastLane(deps: EstimatesFastLaneDeps, app: RequestListener): RequestListener {
  return fastLane(deps, { eligible: eligibleToken, route: () => ESTIMATES_ROUTE, answer: (req, token, accepted) => answer(deps, req, token, accepted) }, app);
}

/** The token of a request the lane may answer: a JSON POST to exactly the path with a small, plain body. */
function eligibleToken(req: IncomingMessage): string | undefined {
  return jsonPostToken(req, ESTIMATES_PATH);
}

/** The token of a JSON POST to exactly `path` with a small, plain body (the ride creation lane's test too). */
export function jsonPostToken(req: IncomingMessage, path: string): string | undefined {
  if (req.method !== 'POST' || req.url !== path) return undefined;
  const { headers } = req;
  const type = headers['content-type']?.toLowerCase().replace(/\s+/g, '');
  if (type !== 'application/json' && type !== 'application/json;charset=utf-8') return undefined;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(headers['content-length']);
  if (!Number.isInteger(length) || length < 1 || length > MAX_FAST_BODY_BYTES) return undefined;
  return presentedToken(req);
}

/** `accepted` learns the key once it is accepted, for the log line of an error handed over after that. */
async function answer({ apiKeys, estimates }: EstimatesFastLaneDeps, req: IncomingMessage, token: string, accepted: { apiKeyId?: string }): Promise<FastLaneAnswer | undefined> {
  const principal = await apiKeys.authenticate(token);
  if (!principal || !principal.scopes.includes(REQUIRED_SCOPE)) return undefined;
  accepted.apiKeyId = principal.keyId;
  const bytes = await readBody(req);
  handOverBody(req, bytes); // from here on, a fallback needs the bytes the stream no longer has
  const parsed = estimateSchema.safeParse(parseStrictJson(bytes));
  if (!parsed.success) return undefined;
  const view = await estimates.createEstimate({ partnerId: principal.organizationId, livemode: principal.livemode }, parsed.data.pickup, parsed.data.dropoff);
  return { status: 200, route: ESTIMATES_ROUTE, apiKeyId: principal.keyId, body: JSON.stringify(view) };
}

/** The whole request body (at most MAX_FAST_BODY_BYTES: `jsonPostToken` checked its Content-Length). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
    // body-parser's error for the same event, so the error handler answers (and logs) it as it would have.
    req.once('aborted', () => reject(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' })));
  });
}

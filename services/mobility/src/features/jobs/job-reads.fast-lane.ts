import type { IncomingMessage, RequestListener } from 'node:http';
import { spendOrganizationBudget, type ApiKeyService } from '@platform/api-keys';
import { answerWithEtag, fastLane, type FastLaneAnswer } from '@platform/service-kit/fast-lane';
import { isIdOf } from '@platform/service-kit/ids';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import type { MinuteBudget } from '@platform/service-kit/minute-budget';
import { expressPath, type RouteSpec } from '@platform/service-kit/route-table';
import { presentedToken, requiredScope, type PartnerAccount } from '../api-keys';
import { operationOf } from '../../platform/route-lookup';

/** One `GET /api/v1/<jobs>/{id}` the lane answers: rides and deliveries. */
export interface JobRead {
  /** `/api/v1/rides/` */
  pathPrefix: string;
  /** The Express route's pattern, for the log line and metrics (`/api/v1/rides/:id`). */
  route: string;
  /** The id's prefix (`ride`): another shape is Express's 404, answered without a query. */
  idPrefix: string;
  scope: string;
  /** The service's own read (the Express route's): throws for a job the account does not have. */
  get(account: PartnerAccount, id: string): Promise<unknown>;
}

/** A read of the route table's operation `GET …/{id}`: its path, Express pattern and scope come from the table. */
export function jobRead(operation: RouteSpec, idPrefix: string, get: JobRead['get']): JobRead {
  const scope = requiredScope(operation);
  if (operation.method !== 'get' || !operation.path.endsWith('/{id}') || !scope) throw new Error(`${operation.operationId} is not a scoped GET of one job`);
  return { pathPrefix: operation.path.slice(0, -'{id}'.length), route: expressPath(operation.path), idPrefix, scope, get };
}

/** The two reads the mobility server's lane answers (`getRide`, `getDelivery` of `table`), through the same service calls as their Express routes. */
export function partnerJobReads(services: { rides: { getRide: JobRead['get'] }; deliveries: { getDelivery: JobRead['get'] } }, table: readonly RouteSpec[]): JobRead[] {
  return [jobRead(operationOf(table, 'getRide'), 'ride', services.rides.getRide), jobRead(operationOf(table, 'getDelivery'), 'dlv', services.deliveries.getDelivery)];
}

export interface JobReadsFastLaneDeps {
  apiKeys: ApiKeyService;
  reads: JobRead[];
  /** The organizations' request budget the API-key guard spends (a request is counted once, here or there). */
  organizations: MinuteBudget;
  logger: Logger;
  metrics: Metrics;
}

/**
 * `GET /api/v1/rides/{id}` and `GET /api/v1/deliveries/{id}`, the partner API's most frequent reads (partners poll
 * them), answered without Express when they succeed: the same key check (the per-process cache), organization budget
 * (spent: 429 by Express), scope, service read
 * and view, and the same bytes, ETag/304, headers, request log line and metrics as the Express route. Anything else
 * (no or bad key, missing scope, a query string, HEAD, `If-Modified-Since`) goes to `app` before anything is written;
 * a read that fails (an unknown or foreign job's 404, a database error) goes to the app's error handler with its error.
 */
export function jobReadsFastLane(deps: JobReadsFastLaneDeps, app: RequestListener): RequestListener {
  return fastLane(deps, { eligible: (req) => eligible(deps.reads, req), route: (target) => target.read.route, answer: (req, target, accepted) => answer(deps, req, target, accepted) }, app);
}

interface Target {
  read: JobRead;
  id: string;
  token: string;
}

function eligible(reads: JobRead[], req: IncomingMessage): Target | undefined {
  if (req.method !== 'GET' || req.headers['if-modified-since'] !== undefined) return undefined;
  const url = req.url ?? '';
  const read = reads.find((candidate) => url.startsWith(candidate.pathPrefix));
  if (!read) return undefined;
  const id = url.slice(read.pathPrefix.length);
  // Only our own id shape: a query string, a deeper path (`/stream`), a trailing slash or percent-encoding stay with Express.
  if (!isIdOf(read.idPrefix, id)) return undefined;
  const token = presentedToken(req);
  return token ? { read, id, token } : undefined;
}

/** `accepted` learns the key once it is accepted, for the log line of an error handed over after that. */
async function answer({ apiKeys, organizations }: JobReadsFastLaneDeps, req: IncomingMessage, { read, id, token }: Target, accepted: { apiKeyId?: string }): Promise<FastLaneAnswer | undefined> {
  const principal = await apiKeys.authenticate(token);
  if (!principal) return undefined;
  const spent = spendOrganizationBudget(req, organizations, principal.organizationId);
  if ((spent instanceof Promise ? await spent : spent) !== undefined || !principal.scopes.includes(read.scope)) return undefined;
  accepted.apiKeyId = principal.keyId;
  const view = await read.get({ partnerId: principal.organizationId, livemode: principal.livemode }, id);
  return answerWithEtag(req, { route: read.route, apiKeyId: principal.keyId }, view);
}

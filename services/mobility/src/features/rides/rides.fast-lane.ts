import type { IncomingMessage, RequestListener } from 'node:http';
import type { ApiKeyService } from '@platform/api-keys';
import { controlCharacterIssues } from '@platform/service-kit/validation';
import { fastLane, type FastLaneAnswer } from '@platform/service-kit/fast-lane';
import { handOverBody, parseStrictJson } from '@platform/service-kit/json-app';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import { requiredScope } from '../api-keys';
import { jsonPostToken, readBody } from '../estimates';
import { operationOf } from '../../platform/route-lookup';
import { ridesContract } from './rides.contract';
import { createRideSchema } from './rides.schema';
import type { RideService } from './rides.service';

export interface RideCreationFastLaneDeps {
  apiKeys: ApiKeyService;
  rides: Pick<RideService, 'createRide'>;
  logger: Logger;
  metrics: Metrics;
}

const REQUEST_RIDE = operationOf(ridesContract, 'requestRide');
const RIDES_PATH = REQUEST_RIDE.path;
/** The route's pattern as the log line and metrics of the operation's Express route name it: the table's path, mounted as is. */
const RIDES_ROUTE = RIDES_PATH;
const REQUIRED_SCOPE = requiredScope(REQUEST_RIDE);

/**
 * `POST /api/v1/rides` without an Idempotency-Key, answered without Express when it succeeds: the same key check
 * (the per-process cache), scope, schema and control-character check, the same service call (`createRide`: the row,
 * its timers and its first search), and the same 201, bytes, headers, request log line and metrics as the Express route.
 * Anything else (an Idempotency-Key, no or bad key, missing scope, an unusual body, bad JSON, a failed validation)
 * goes to `app` before anything is written, with the body's bytes once they were read; a step that fails (an unknown
 * estimate, a refused event pass, a Postgres or Redis error) goes to the app's error handler with its error.
 */
export function rideCreationFastLane(deps: RideCreationFastLaneDeps, app: RequestListener): RequestListener {
  return fastLane(deps, { eligible, route: () => RIDES_ROUTE, answer: (req, token, accepted) => answer(deps, req, token, accepted) }, app);
}

function eligible(req: IncomingMessage): string | undefined {
  if (req.headers['idempotency-key'] !== undefined) return undefined; // replays and their header stay with Express
  return jsonPostToken(req, RIDES_PATH);
}

/** `accepted` learns the key once it is accepted, for the log line of an error handed over after that. */
async function answer({ apiKeys, rides }: RideCreationFastLaneDeps, req: IncomingMessage, token: string, accepted: { apiKeyId?: string }): Promise<FastLaneAnswer | undefined> {
  const principal = await apiKeys.authenticate(token);
  if (!principal || !principal.scopes.includes(REQUIRED_SCOPE)) return undefined;
  accepted.apiKeyId = principal.keyId;
  const bytes = await readBody(req);
  handOverBody(req, bytes); // from here on, a fallback needs the bytes the stream no longer has
  const json = parseStrictJson(bytes);
  if (json === undefined || controlCharacterIssues(json).length > 0) return undefined;
  const parsed = createRideSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const created = await rides.createRide({ partnerId: principal.organizationId, livemode: principal.livemode }, parsed.data);
  return { status: created.status, route: RIDES_ROUTE, apiKeyId: principal.keyId, body: JSON.stringify(created.body) };
}

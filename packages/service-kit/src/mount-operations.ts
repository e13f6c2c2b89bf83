import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { requireRole } from './admin-auth';
import { sendJsonWithEtag } from './etag';
import { ForbiddenError } from './errors';
import { hasBody, isJsonType, jsonBodies } from './json-app';
import { UnsupportedMediaTypeError } from './media-type';
import { expressPath } from './route-table';
import { bodyMedia, type CostClass, type MediaSchemas, type ResponseSpec, type RouteSpec } from './route-spec';
import { parseOrThrow } from './validation';

/**
 * The app built from a route table: one Express route per operation, its chain made from the entry alone — the
 * security scheme's guard with the entry's scopes, the roles, the mode, the cost class's hooks, the body parser with
 * the entry's limit and media types, the audit recorder, then params, query, headers and body parsed by the entry's
 * zod (422 Problem Details) and handed to the handler, whose answer the kit sends. No feature declares a path, a
 * scope, a role, a limit or an audit action again.
 */

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParsedBody<B> = B extends z.ZodType ? z.output<B> : B extends MediaSchemas ? unknown : undefined;

/** What a handler receives: the parsed input, and the request and response for what the table does not shape (streams, bytes). */
export interface OperationInput<R extends RouteSpec> {
  params: Parsed<R['params']>;
  query: Parsed<R['query']>;
  headers: Parsed<R['headers']>;
  body: ParsedBody<R['body']>;
  req: Request;
  res: Response;
}

type JsonOf<S> = S extends z.ZodType
  ? z.input<S>
  : S extends { content: infer C }
    ? C extends { 'application/json': infer J }
      ? J extends z.ZodType
        ? z.input<J>
        : unknown
      : unknown
    : undefined;

/** One declared answer: its status, its body (typed by the table for JSON) and extra headers. */
export type OperationAnswer<R extends RouteSpec> = {
  [S in keyof R['responses'] & number]: {
    status: S;
    body?: JsonOf<R['responses'][S] extends ResponseSpec ? R['responses'][S] : never>;
    headers?: Record<string, string>;
    /** Sent with an ETag (and as 304 to a matching `If-None-Match`). */
    etag?: boolean;
  };
}[keyof R['responses'] & number];

/** A handler answers with a declared answer, or nothing when it wrote the answer itself (a stream, a page, bytes). */
export type OperationHandler<R extends RouteSpec> = (input: OperationInput<R>) => Promise<OperationAnswer<R> | void> | OperationAnswer<R> | void;

/** One handler per operation of a (feature's) table, keyed by operation id. */
export type Handlers<T extends readonly RouteSpec[]> = { [R in T[number] as R['operationId']]: OperationHandler<R> };

/** What a security scheme's guard is told about the operation it guards. */
export interface SecurityRequirement {
  operationId: string;
  scheme: string;
  scopes: readonly string[];
  /** The entry also admits a request without the credential (`{}` among its requirements). */
  optional: boolean;
}

export interface OperationGuards {
  /** Security scheme (as the table names it) → the middlewares that authenticate a request and check its scopes. */
  schemes: Record<string, (requirement: SecurityRequirement) => RequestHandler[]>;
  /** The authenticated caller's mode (a key's, or an admin session's query), for `mode: live-only | test-only`. */
  modeOf?: (req: Request) => 'live' | 'test' | undefined;
  /** The recorder of an operation's declared audit action (written when the answer is a success). */
  audit?: (action: string) => RequestHandler;
  /** Middlewares each cost class runs before the body is read (the fair-share governor's hook). */
  costs?: Partial<Record<CostClass, RequestHandler[]>>;
}

export interface MountOptions {
  /** Mount only the operations given a handler (the rest are answered elsewhere); by default every operation needs one. */
  partial?: boolean;
}

/** Mounts every operation of `table` on `router` (see the module's comment); a missing or unknown handler fails at start-up. */
export function mountOperations(router: Router, table: readonly RouteSpec[], handlers: Record<string, (input: never) => unknown>, guards: OperationGuards, options: MountOptions = {}): void {
  const ids = new Set(table.map((spec) => spec.operationId));
  for (const id of Object.keys(handlers)) if (!ids.has(id)) throw new Error(`a handler is given for ${id}, which the route table does not declare`);
  for (const spec of [...table].sort(literalSegmentsFirst)) {
    const handler = handlers[spec.operationId] as OperationHandler<RouteSpec> | undefined;
    if (!handler) {
      if (options.partial) continue;
      throw new Error(`no handler for ${spec.operationId}`);
    }
    const register = router[spec.method].bind(router) as (path: string, ...chain: RequestHandler[]) => unknown;
    register(expressPath(spec.path), ...chainOf(spec, guards), answering(spec, handler));
  }
}

/** The middlewares before the handler, in order: guard, roles, mode, cost hooks, body parser, audit recorder. */
export function chainOf(spec: RouteSpec, guards: OperationGuards): RequestHandler[] {
  const chain: RequestHandler[] = [...guardOf(spec, guards)];
  if (spec.roles?.length) chain.push(requireRole(...spec.roles));
  if (spec.mode && spec.mode !== 'live-and-test') chain.push(modeCheck(spec.mode, guards));
  if (spec.cost) {
    const hooks = guards.costs?.[spec.cost];
    if (!hooks) throw new Error(`${spec.operationId} declares cost ${spec.cost}, and the service gives no governor for it`);
    chain.push(...hooks);
  }
  chain.push(...bodyParsersOf(spec));
  if (typeof spec.audit === 'string') {
    if (!guards.audit) throw new Error(`${spec.operationId} declares an audit action, and the service gives no audit recorder`);
    chain.push(guards.audit(spec.audit));
  }
  return chain;
}

function guardOf(spec: RouteSpec, guards: OperationGuards): RequestHandler[] {
  const requirements = spec.security ?? [];
  const first = requirements.find((requirement) => Object.keys(requirement).length > 0);
  if (!first) return [];
  const scheme = Object.keys(first)[0]!;
  const guard = guards.schemes[scheme];
  if (!guard) throw new Error(`${spec.operationId} names security scheme ${scheme}, which the service does not guard`);
  return guard({ operationId: spec.operationId, scheme, scopes: first[scheme] ?? [], optional: requirements.some((requirement) => Object.keys(requirement).length === 0) });
}

function modeCheck(mode: 'live-only' | 'test-only', guards: OperationGuards): RequestHandler {
  if (!guards.modeOf) throw new Error(`an operation is ${mode}, and the service gives no modeOf`);
  const modeOf = guards.modeOf;
  return (req, _res, next) => {
    const callerMode = modeOf(req);
    if (mode === 'live-only' && callerMode === 'test') return next(new ForbiddenError('This operation has no test mode; use a live key or live data', 'test_mode_not_supported'));
    if (mode === 'test-only' && callerMode === 'live') return next(new ForbiddenError('The sandbox needs a test-mode key (mk_test_…); live keys cannot move jobs', 'livemode_key_not_allowed'));
    next();
  };
}

/** The parsers of the entry's body: its bytes (`rawBody`), text for each non-JSON media type it declares, then JSON; with its limit. */
function bodyParsersOf(spec: RouteSpec): RequestHandler[] {
  if (spec.body === undefined && spec.method === 'get') return []; // a read takes no body: one sent is left unread
  const limit = spec.bodyLimit ?? '100kb';
  if (spec.rawBody) return [express.raw({ type: () => true, limit })];
  const media = bodyMedia(spec.body) ?? {};
  const textTypes = Object.keys(media).filter((type) => type !== 'application/json' && !type.endsWith('+json'));
  const others = Object.keys(media).filter((type) => type !== 'application/json');
  return [...(others.length ? [refuseUndeclared(['application/json', ...others])] : []), ...textTypes.map((type) => express.text({ type, limit })), ...jsonBodies(limit)];
}

/** A body of a media type the entry does not declare is a 415 that names the ones it does (`application/json or text/csv`). */
function refuseUndeclared(types: string[]): RequestHandler {
  const message = `Content-Type must be ${types.slice(0, -1).join(', ')} or ${types.at(-1)!}`;
  return (req, _res, next) => {
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (hasBody(req) && !types.includes(type) && !isJsonType(req)) return next(new UnsupportedMediaTypeError(message));
    next();
  };
}

/** The handler's route: input parsed by the entry's zod, the handler called, its answer sent. */
function answering(spec: RouteSpec, handler: OperationHandler<RouteSpec>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let input: OperationInput<RouteSpec>;
    try {
      input = {
        params: spec.params ? pathParamsOf(spec.params, req.params) : undefined,
        query: spec.query ? parseOrThrow(spec.query, req.query) : undefined,
        headers: spec.headers ? headersOf(spec, spec.headers, req) : undefined,
        body: bodyOf(spec, req),
        req,
        res,
      } as OperationInput<RouteSpec>;
    } catch (error) {
      return next(error);
    }
    Promise.resolve()
      .then(() => handler(input))
      .then((answer) => {
        if (answer) send(req, res, answer);
      })
      .catch(next);
  };
}

/**
 * The path parameters by the entry's zod. A control character in one is not refused as a text field's would be (422):
 * a path parameter is an id or a code, and one holding a control character names nothing, so the handler's own check of
 * its shape answers (404 `not_found`, as for any id of the wrong shape). Only what the schema refuses is 422.
 */
function pathParamsOf(schema: z.ZodObject, params: Request['params']): unknown {
  const parsed = schema.safeParse(params);
  return parsed.success ? parsed.data : parseOrThrow(schema, params);
}

/**
 * The declared headers, parsed; for a `rawBody` entry as sent: the signature they carry is checked by the handler
 * over the bytes, and a missing or malformed one is its refusal (401 `invalid_signature`, the receipt kept), not a 422.
 */
function headersOf(spec: RouteSpec, schema: z.ZodObject, req: Request): unknown {
  const headers = declaredHeaders(schema, req);
  return spec.rawBody ? headers : parseOrThrow(schema, headers);
}

/** The request headers the entry declares, under the names it declares them (`Idempotency-Key`). */
function declaredHeaders(schema: z.ZodObject, req: Request): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, req.headers[name.toLowerCase()]]));
}

function bodyOf(spec: RouteSpec, req: Request): unknown {
  if (spec.body === undefined || spec.rawBody) return req.body as unknown;
  if (req.body === undefined && spec.bodyOptional) return undefined;
  const media = bodyMedia(spec.body)!;
  const type = String(req.headers['content-type'] ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  const schema = type in media ? media[type] : media['application/json'];
  if (!schema) return req.body as unknown;
  // A JSON body left out is read as `{}`, so each missing field is named (`email: Required`) rather than the body.
  return parseOrThrow(schema, req.body === undefined && !(type in media && type !== 'application/json') ? {} : req.body);
}

function send(req: Request, res: Response, answer: { status: number; body?: unknown; headers?: Record<string, string>; etag?: boolean }): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.status(answer.status);
  if (answer.etag) return sendJsonWithEtag(req, res, answer.body);
  if (answer.body === undefined) {
    res.end();
    return;
  }
  res.json(answer.body);
}

/** Literal path segments before parameters, segment by segment (`/credentials/verify` before `/credentials/{code}`). */
function literalSegmentsFirst(a: RouteSpec, b: RouteSpec): number {
  const shape = (path: string) => path.split('/').map((segment) => (segment.includes('{') ? '1' : '0')).join('');
  const [left, right] = [shape(a.path), shape(b.path)];
  return left < right ? -1 : left > right ? 1 : 0;
}

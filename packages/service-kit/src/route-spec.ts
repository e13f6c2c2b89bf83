import { z } from 'zod';
import { problemSchema } from './problem-schema';

/**
 * One operation of a service's route table: method, path, security, parameters, body and every response (status → zod
 * schema), and the promises the kit keeps for it (roles, mode, audit action, cost class, body limit). The description
 * (`describe-routes.ts`), the conformance check (`response-conformance.ts`) and the mounted app
 * (`mount-operations.ts`) are all built from it.
 *
 * The types here name only zod and plain data, never a web framework's, so a service's table can be exported and
 * compiled to declarations without naming another package's dependencies.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A body per media type; `null` documents the media type without a schema (bytes the description does not shape). */
export type MediaSchemas = { [mediaType: string]: z.ZodType | null };

/** A response header: its schema (a `description` in the schema's meta becomes the header's). */
export interface HeaderSpec {
  /** Names a header several responses share: written once under `components/headers/<id>` and referenced. */
  id?: string;
  schema: z.ZodType;
  description?: string;
  required?: boolean;
}

export interface ResponseObjectSpec {
  /** Names a response several operations share: it is written once under `components/responses/<id>` and referenced. */
  id?: string;
  description?: string;
  headers?: Record<string, HeaderSpec>;
  /** Media type → schema; absent for an answer without a body. */
  content?: MediaSchemas;
  /** Media type → one example answer (prose of the description; never checked against traffic). */
  examples?: Record<string, unknown>;
  /** Media type → named examples (`{ name: { summary?, value } }`), when one example is not enough. */
  namedExamples?: Record<string, Record<string, unknown>>;
}

/** A zod schema (a JSON body), a full response, or `null` (no body, e.g. a 204 or 304). */
export type ResponseSpec = z.ZodType | ResponseObjectSpec | null;

export interface RouteSpec {
  /** The operation's id in the description. */
  operationId: string;
  method: HttpMethod;
  /** The full public path in OpenAPI form: `/api/v1/verify/{code}`. */
  path: string;
  tags?: string[];
  /** As in OpenAPI; `[]` for none. A scope listed here is shown as `x-required-scope`. */
  security?: Array<Record<string, string[]>>;
  /** Path parameters; a property with `.meta({ parameterId })` is written once under `components/parameters/<id>`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the operation reads (`Origin`, `If-None-Match`). */
  headers?: z.ZodObject;
  cookies?: z.ZodObject;
  /** A zod schema (JSON body) or media type → schema. */
  body?: z.ZodType | MediaSchemas;
  /** Whether the body may be left out (default: required). */
  bodyOptional?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Admin roles allowed beyond the security scheme (default: every role the scheme admits). */
  roles?: readonly AdminRole[];
  /**
   * Which data the operation serves: `live-and-test` (the default: a test key or test-mode session sees test data),
   * `live-only` (a test key or test session gets 403 `test_mode_not_supported`, nothing acts live) or `test-only`
   * (a live key gets 403 `livemode_key_not_allowed`: the sandbox).
   */
  mode?: OperationMode;
  /**
   * The audit action recorded when the operation succeeds (`api_key.created`), or an exemption that says why an admin
   * write records nothing (`{ exempt: 'a preview: draws the document, stores nothing' }`). Every admin operation that is
   * not a GET declares one or the other (each service's `audit-coverage.test.ts` walks its table).
   */
  audit?: string | AuditExemption;
  /** The shared resource the operation spends beyond a plain request: the fair-share governor's hook. */
  cost?: CostClass;
  /** The largest body accepted (`100kb` when absent); larger is 413. */
  bodyLimit?: string;
  /**
   * The body is handed over as its bytes (a payment signature is over them): no parser reads it, and the declared
   * headers (the signature) are handed over as sent, for the handler to check with the bytes.
   */
  rawBody?: boolean;
  /** Whether a create honours `Idempotency-Key` (a repeat answers the first answer). */
  idempotent?: boolean;
}

/** An admin write that records no audit entry, and why (a sentence a reviewer can check). */
export interface AuditExemption {
  exempt: string;
}

export type AdminRole = 'owner' | 'member' | 'operator' | 'platform_operator';
export type OperationMode = 'live-and-test' | 'live-only' | 'test-only';
export type CostClass = 'upload' | 'render' | 'stream' | 'bulk' | 'mail';

/**
 * The governor's refusal, which every operation declaring a `cost` may answer (the kit's cost hook answers it before the
 * handler runs), so the table declares it once here rather than in each entry.
 */
export const overShareResponse: ResponseObjectSpec = {
  id: 'OverShare',
  description:
    'Not started (`too_many_in_flight`): the organization or its account already has as many of these in flight as its plan allows, ' +
    'or this server is busy with them and the account holds its fair share; or (`rate_limited`) the account started as many as its plan ' +
    'allows a minute. Ask again after `Retry-After`.',
  headers: { 'Retry-After': { schema: z.int().meta({ description: 'Seconds to wait before asking again.' }) } },
  content: { 'application/problem+json': problemSchema },
};

/**
 * Keeps the literal types of the spec (`route({...})`); an entry with a `cost` also declares the governor's 429
 * (`overShareResponse`) unless it declares its own.
 */
export const route = <Id extends string, R extends Omit<RouteSpec, 'operationId'>>(spec: R & { operationId: Id }): R & { operationId: Id } =>
  spec.cost && !(429 in spec.responses) ? { ...spec, responses: { ...spec.responses, 429: overShareResponse } } : spec;

/** The response of one status as a full spec, whatever shorthand the table used. */
export function responseOf(spec: ResponseSpec): ResponseObjectSpec {
  if (spec === null) return {};
  if (spec instanceof z.ZodType) return { content: { 'application/json': spec } };
  return spec;
}

export function bodyMedia(body: RouteSpec['body']): MediaSchemas | undefined {
  if (body === undefined) return undefined;
  return body instanceof z.ZodType ? { 'application/json': body } : body;
}

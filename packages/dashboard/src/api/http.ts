/**
 * The one way the dashboard calls its back end: same-origin JSON over fetch, cookies included (the refresh cookie),
 * the access token as a Bearer header, and every non-2xx answer turned into an ApiError carrying the problem+json body.
 */

import { modeQueryFor, type DataMode } from '../mode/data-mode';
import type { AccountsRoute } from './accounts';
import type { CertificateService, MobilityService } from '@platform/client/schema';

/** `/api-keys/{id}/rotate` → `/api-keys/${string}/rotate`: what a concrete path of that route looks like. */
type Concrete<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Concrete<Tail>}` : P;
/** The admin routes a generated description documents, below `/admin/v1`. */
type AdminRoutes<P> = P extends `/admin/v1${infer Route}` ? Concrete<Route> : never;

/**
 * The paths the dashboard may call on each back end: the documented admin routes (and the account routes listed by
 * name in accounts.ts), so a typo or a removed route fails the type check.
 */
export interface Routes {
  auth: AccountsRoute;
  certificate: AdminRoutes<keyof CertificateService.paths>;
  mobility: AdminRoutes<keyof MobilityService.paths>;
}

/** Where each back end is reached through the gateway, below the app's own base path. */
export const API_BASE = {
  auth: '/dashboard/api/auth',
  certificate: '/dashboard/api/certificate',
  mobility: '/dashboard/api/mobility',
} as const;
export type Service = keyof typeof API_BASE;

/** A field error as the services report it: `details[]` ({path, message}) or `errors[]` ({field|path, message}). */
export interface FieldProblem {
  path: string;
  message: string;
}

export interface Problem {
  status: number;
  code?: string;
  title?: string;
  detail: string;
  fields: FieldProblem[];
  /** Anything else the body carried (for example a batch upload's rejected rows). */
  body: unknown;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
    this.name = 'ApiError';
  }
  get status(): number {
    return this.problem.status;
  }
  get code(): string | undefined {
    return this.problem.code;
  }
}

let accessToken: string | null = null;
/** The access token lives in memory only (never in storage), set by the session on sign-in and each refresh. */
export function setAccessToken(token: string | null): void {
  accessToken = token;
}
export function getAccessToken(): string | null {
  return accessToken;
}

/**
 * Renews the access token after an admin call answered 401 (the timer may have missed expiry, e.g. after the laptop
 * slept); set by the session. Resolves with whether a new token is in place.
 */
let renewAccess: (() => Promise<boolean>) | null = null;
export function setAccessRenewal(renew: (() => Promise<boolean>) | null): void {
  renewAccess = renew;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | undefined | null>;
  /** A JSON body, or a string sent with `contentType`. */
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** The mode to act in when not the page's own (looking a detail up in the other mode). */
  mode?: DataMode;
}

export function apiUrl<S extends Service>(service: S, path: Routes[S], query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const search = params.toString();
  return `${API_BASE[service]}${path}${search ? `?${search}` : ''}`;
}

/** Calls `path` of `service`; resolves with the parsed JSON body (undefined for 204), rejects with ApiError. */
export async function request<T, S extends Service = Service>(service: S, path: Routes[S], options: RequestOptions = {}): Promise<T> {
  const response = await send(service, path, options);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

/**
 * Calls `path` and resolves with the raw answer (for downloads), rejecting with ApiError like request(). An admin call
 * refused with 401 is sent once more after the session renewed its token.
 */
export async function send<S extends Service>(service: S, path: Routes[S], options: RequestOptions = {}): Promise<Response> {
  const sentWith = accessToken;
  const response = await sendOnce(service, path, options);
  if (response.status !== 401 || service === 'auth') return checked(response);
  // Renewed meanwhile (another call got there first): just send again; otherwise renew once, then send again.
  const renewed = (accessToken !== null && accessToken !== sentWith) || (renewAccess !== null && (await renewAccess().catch(() => false)));
  return checked(renewed ? await sendOnce(service, path, options) : response);
}

async function checked(response: Response): Promise<Response> {
  if (!response.ok) throw new ApiError(await readProblem(response));
  return response;
}

function sendOnce<S extends Service>(service: S, path: Routes[S], options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/json';
    body = typeof options.body === 'string' && options.contentType ? options.body : JSON.stringify(options.body);
  }
  return fetch(apiUrl(service, path, { ...modeQueryFor(service, path, options.mode), ...options.query }), {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
}

export async function readProblem(response: Response): Promise<Problem> {
  let body: unknown = null;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const detail = [record.detail, record.error, record.title].find((value) => typeof value === 'string' && value) as string | undefined;
  return {
    status: response.status,
    code: typeof record.code === 'string' ? record.code : undefined,
    title: typeof record.title === 'string' ? record.title : undefined,
    detail: detail ?? `The request failed (HTTP ${response.status}).`,
    fields: fieldProblems(record),
    body,
  };
}

function fieldProblems(record: Record<string, unknown>): FieldProblem[] {
  const list = [record.details, record.errors].find(Array.isArray) as unknown[] | undefined;
  if (!list) return [];
  return list.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const entry = item as Record<string, unknown>;
    const path = [entry.path, entry.field, entry.pointer].find((value) => typeof value === 'string' || Array.isArray(value));
    const message = [entry.message, entry.detail].find((value) => typeof value === 'string') as string | undefined;
    if (!message) return [];
    return [{ path: Array.isArray(path) ? path.join('.') : String(path ?? '').replace(/^\//, '').replace(/\//g, '.'), message }];
  });
}

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, hostOf, isForbiddenAddress, parseTargetUrl, UnsafeTargetError, type TargetPolicy } from '@platform/service-kit/ssrf-guard';
import { refusedConnection } from './webhook-url-refusals';

export const RESPONSE_EXCERPT_BYTES = 1024;
const MAX_RESPONSE_READ_BYTES = 64 * 1024;

export interface SendOutcome {
  /** The HTTP status, or null when no answer came (timeout, refused connection, refused target). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 kB of the answer. */
  excerpt: string | null;
  /** The answer's headers (at most 50, each value at most 512 characters); null when no answer came. */
  headers?: Record<string, string> | null;
  /** From a `Retry-After` header (seconds or an HTTP date), when present. */
  retryAfterMs: number | null;
  /** The forbidden address a host resolved to, for the worker's log (never the partner-visible `error`). */
  forbiddenAddress?: string;
}

export interface WebhookSender {
  send(rawUrl: string, body: string, headers: Record<string, string>): Promise<SendOutcome>;
  close(): void;
}

/**
 * Keep-alive agents whose DNS lookup refuses forbidden addresses, so the socket connects only to an address that
 * passed the check. Redirects are never followed (node's http client does not follow them).
 */
export function createWebhookSender(policy: TargetPolicy, timeoutMs: number): WebhookSender {
  const lookup = guardedLookup(policy, refusedConnection);
  const agentOptions = { keepAlive: true, maxSockets: 100, lookup };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  const targets = new Map<string, Target>();

  /** The checked target of a URL, parsed once per URL (the policy is fixed): endpoints are few, deliveries many. */
  function targetOf(rawUrl: string): Target {
    let target = targets.get(rawUrl);
    if (target) return target;
    const url = parseTargetUrl(rawUrl, policy);
    const host = hostOf(url);
    // A literal IP skips the agent's lookup, so it is checked here.
    if (isIP(host) && !policy.allowPrivate && isForbiddenAddress(host)) throw new Error(refusedConnection(host));
    const https_ = url.protocol === 'https:';
    target = {
      client: https_ ? https : http,
      agent: https_ ? agents.https : agents.http,
      hostname: host,
      port: url.port ? Number(url.port) : https_ ? 443 : 80,
      path: `${url.pathname}${url.search}`,
      hostHeader: url.host,
    };
    if (targets.size >= MAX_CACHED_TARGETS) targets.delete(targets.keys().next().value!);
    targets.set(rawUrl, target);
    return target;
  }

  return {
    async send(rawUrl, body, headers) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let target: Target;
      try {
        target = targetOf(rawUrl);
      } catch (error) {
        return { statusCode: null, durationMs: elapsed(), error: (error as Error).message, excerpt: null, retryAfterMs: null };
      }
      return post(target, body, headers, timeoutMs, elapsed);
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Parsed URLs kept per sender; past this many the oldest goes (a changed endpoint URL is a new key). */
const MAX_CACHED_TARGETS = 1000;

interface Target {
  client: typeof http | typeof https;
  agent: http.Agent;
  hostname: string;
  port: number;
  /** Path and query, as sent on the request line. */
  path: string;
  /** The URL's host with its port when it has one, as the Host header carries it. */
  hostHeader: string;
}

function post(target: Target, body: string, headers: Record<string, string>, timeoutMs: number, elapsed: () => number): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    // The headers go as a flat list (the form of rawHeaders): node writes them as they are instead of validating and
    // storing each one by one; Host, which node adds only to object headers, is given here.
    const headerList: string[] = ['Host', target.hostHeader];
    for (const name in headers) headerList.push(name, headers[name]!);
    headerList.push('Content-Length', String(Buffer.byteLength(body)));
    const options = { method: 'POST', agent: target.agent, hostname: target.hostname, port: target.port, path: target.path, headers: headerList, setHost: false };
    const req = target.client.request(options, (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const answer = () => {
        const excerpt = safeExcerpt(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES));
        finish({ statusCode: res.statusCode ?? null, error: null, excerpt: excerpt || null, retryAfterMs: parseRetryAfter(res.headers['retry-after']), headers: cappedHeaders(res.rawHeaders) });
      };
      res.on('data', (chunk: Buffer) => {
        if (read < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
        read += chunk.length;
        if (read > MAX_RESPONSE_READ_BYTES) {
          answer(); // enough: the rest of a huge answer is not worth the socket
          req.destroy();
        }
      });
      res.on('end', answer);
      res.on('error', answer);
      res.on('close', answer); // whichever comes first; finish() settles once
    });
    // Timers run before sockets are read in each turn of the event loop: after a pause of this process (SIGSTOP, a
    // long GC, a starved CPU) an answer already waiting on the socket would lose to an overdue timeout, and a delivered
    // message would be sent again. The timeout therefore ends the request only after one more read of the sockets.
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) req.destroy(new Error(`timed out after ${timeoutMs} ms`));
      });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      const forbiddenAddress = error instanceof UnsafeTargetError ? error.forbiddenAddress : undefined;
      finish({ statusCode: null, error: error.message || error.code || 'request failed', excerpt: null, retryAfterMs: null, ...(forbiddenAddress ? { forbiddenAddress } : {}) });
    });
    req.end(body);
  });
}

const MAX_RESPONSE_HEADERS = 50;
const MAX_HEADER_VALUE = 512;

/** An answer's headers as the message log keeps them: names in lower case, repeated ones joined, few and short. */
export function cappedHeaders(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const seen = name in headers;
    if (!seen && count >= MAX_RESPONSE_HEADERS) continue;
    const value = safeText(raw[i + 1]!.slice(0, MAX_HEADER_VALUE));
    if (seen) headers[name] = `${headers[name]}, ${value}`.slice(0, MAX_HEADER_VALUE);
    else {
      headers[name] = value;
      count += 1;
    }
  }
  return headers;
}

/** The control characters a stored excerpt writes as `\u…` escapes (tab, newline and carriage return stay). */
const CONTROL_CHARACTERS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f';
const CONTROL_CHARACTER = new RegExp(`[${CONTROL_CHARACTERS}]`, 'g');
/** A control character, or a lone surrogate (UTF-8 encoding turns it into U+FFFD): the text needs `safeExcerpt`. */
const NEEDS_CLEANING = new RegExp(`[${CONTROL_CHARACTERS}\\ud800-\\udfff]`);

/** `safeExcerpt` of a string's UTF-8 bytes, without the round trip through a Buffer when the string is clean already (nearly always). */
function safeText(text: string): string {
  return NEEDS_CLEANING.test(text) ? safeExcerpt(Buffer.from(text)) : text;
}

/**
 * The first bytes of an answer as text Postgres can store: invalid UTF-8 becomes U+FFFD and control characters (NUL
 * above all, which a text column refuses) are written as `\u0000` escapes; tab, newline and carriage return stay.
 */
export function safeExcerpt(bytes: Buffer): string {
  return bytes.toString('utf8').replace(CONTROL_CHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT` → milliseconds from now. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

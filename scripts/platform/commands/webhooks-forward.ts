/**
 * `webhooks listen --forward-to`: a verified delivery sent on to the partner's local app as the platform sent it (same
 * method, body bytes and headers, the Standard Webhooks signature ones included, so the app verifies it with the
 * listener's signing secret), and what the app answered, for the listener's line.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** How long the app may take to answer one delivery. */
const FORWARD_TIMEOUT_MS = 10_000;

/** Headers that belong to the connection to the listener, not to the delivery (fetch sets its own). */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** The app's answer: its status and the time it took, or why it could not be reached. */
export type Forwarded = { url: string; status: number; duration_ms: number } | { url: string; error: string; duration_ms: number };

export async function forwardDelivery(url: URL, method: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Forwarded> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !CONNECTION_HEADERS.has(name)) sent[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  try {
    const response = await fetch(url, { method, headers: sent, body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    await response.arrayBuffer().catch(() => undefined); // the answer's body is the app's business: read and dropped
    return { url: url.href, status: response.status, duration_ms: elapsed() };
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { url: url.href, error: reason, duration_ms: elapsed() };
  }
}

/** `→ [200] 12 ms` or `→ ✗ ECONNREFUSED (is your app running at …?)`. */
export function forwardedLine(forwarded: Forwarded): string {
  if ('status' in forwarded) return `→ [${forwarded.status}] ${forwarded.duration_ms} ms`;
  return `→ ✗ ${forwarded.error} (is your app listening at ${forwarded.url}?)`;
}

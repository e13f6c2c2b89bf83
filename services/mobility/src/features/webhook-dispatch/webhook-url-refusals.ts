/**
 * How a webhook URL refused by the shared SSRF guard (@platform/service-kit/ssrf-guard) reads to the partner.
 *
 * The one answer to every refusal of a webhook URL at registration: a bad scheme, credentials, a host that does not
 * resolve and one that resolves to a forbidden address all read the same, so the answer cannot be used to map which
 * internal names exist. What exactly was wrong goes to our log (`reason`, `forbiddenAddress`).
 */
export const WEBHOOK_URL_REFUSED = 'must be a public https:// URL without credentials whose host resolves only to public addresses';

/** The one attempt-log text for a connection refused by the guard (forbidden address or a host that does not resolve). */
export function refusedConnection(host: string): string {
  return `refused to connect to ${host}: the webhook URL was refused`;
}

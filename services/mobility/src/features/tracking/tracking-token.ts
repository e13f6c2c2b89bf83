import { createHash, createHmac } from 'node:crypto';

/** 18 bytes (144 bits) of HMAC output, 24 base64url characters: far beyond guessing, short enough for an SMS. */
const TOKEN_BYTES = 18;
export const TRACKING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{24}$/;
/** How many delivery ids' tokens one process keeps (about 100 bytes each). */
const RECENT_TOKENS = 10_000;

/** The stored lookup key of a token: its SHA-256, hex. */
export function trackingTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface TrackingLinkSettings {
  /** TRACKING_TOKEN_SECRET (job-secrets.ts: its own development value when unset, required in production). */
  secret: string;
  /** PUBLIC_BASE_URL: where the public reaches the gateway. */
  publicBaseUrl: string;
}

/**
 * Each delivery's tracking token is HMAC-SHA256(key, delivery id), cut to 144 bits: nobody without the key can compute
 * it (delivery ids are random too), the service can show the same link in every answer and webhook, and the database
 * keeps only the token's SHA-256 (a stolen row reveals no working link). Changing the secret breaks existing links.
 */
export function createTrackingLinks({ secret, publicBaseUrl }: TrackingLinkSettings) {
  const key = createHmac('sha256', secret).update('mobility delivery tracking token v1').digest();
  const base = publicBaseUrl.replace(/\/+$/, '');

  // Partners poll the same deliveries (GET and webhooks show the link each time): recent tokens are kept, up to a bound.
  const recent = new Map<string, string>();
  function tokenFor(deliveryId: string): string {
    let token = recent.get(deliveryId);
    if (token === undefined) {
      token = createHmac('sha256', key).update(deliveryId).digest().subarray(0, TOKEN_BYTES).toString('base64url');
      if (recent.size >= RECENT_TOKENS) recent.delete(recent.keys().next().value!);
      recent.set(deliveryId, token);
    }
    return token;
  }

  return {
    tokenFor,
    hashFor: (deliveryId: string) => trackingTokenHash(tokenFor(deliveryId)),
    urlFor: (delivery: { id: string; tracking_token_hash: string | null }) => (delivery.tracking_token_hash ? `${base}/track/${tokenFor(delivery.id)}` : null),
  };
}

export type TrackingLinks = ReturnType<typeof createTrackingLinks>;

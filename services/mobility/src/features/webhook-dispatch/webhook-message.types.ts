/**
 * A webhook message is one event for one endpoint (a `webhook_deliveries` row); each HTTP try at sending it is a
 * webhook attempt (a `webhook_attempts` row). The endpoint API reads both for its delivery log.
 */
export type WebhookMessageStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookMessageRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  partner_id: string;
  status: WebhookMessageStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** While in the future, one job holds the delivery's current attempt (migration 0300); null once it is recorded. */
  claimed_until?: Date | null;
  /** The token of the claim holding the current attempt (migration 0320); null when none does. */
  claim_token?: string | null;
}

export interface WebhookAttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body_excerpt: string | null;
  /** Null on attempts logged before these were kept (and response headers when no answer came). */
  request_headers?: Record<string, string> | null;
  response_headers?: Record<string, string> | null;
  created_at: Date;
}

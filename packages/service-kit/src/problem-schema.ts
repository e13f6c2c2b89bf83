import { z } from 'zod';

/** Every error code the platform answers: both services and the gateway share this one list. */
export const ERROR_CODES = [
  'bad_request', 'invalid_json', 'request_aborted', 'payload_too_large', 'unsupported_media_type', 'route_not_found', 'method_not_allowed', 'not_found',
  'validation_failed', 'missing_api_key', 'invalid_api_key', 'insufficient_scope', 'missing_token', 'invalid_token', 'insufficient_role', 'api_key_revoked',
  'api_key_expired', 'database_busy', 'internal_error', 'insufficient_credits', 'certificate_number_taken', 'invalid_signature', 'malformed_webhook',
  'verification_unavailable', 'gateway_not_configured', 'idempotency_key_reused', 'invalid_ride_status', 'invalid_delivery_status', 'offer_closed',
  'invalid_pin', 'pin_locked', 'endpoint_disabled', 'delivery_not_failed', 'rate_limited', 'too_many_in_flight', 'request_timeout', 'upstream_unavailable',
  'upstream_timeout', 'driver_disabled', 'duplicate_webhook_url', 'webhook_endpoint_limit_reached', 'event_pass_not_found', 'event_pass_revoked',
  'event_pass_used_up', 'event_pass_program_closed', 'event_pass_outside_window', 'event_pass_venue_mismatch', 'event_pass_tier_not_allowed',
  'event_pass_budget_exhausted', 'template_archived', 'template_changed', 'delivery_quote_not_found', 'delivery_quote_expired', 'delivery_quote_mismatch',
  'invalid_activation_code', 'activation_code_expired', 'invalid_refresh_token', 'refresh_token_reused', 'session_revoked', 'livemode_key_not_allowed',
  'sandbox_transition_not_allowed', 'test_mode_not_supported', 'too_many_streams', 'api_key_limit_reached', 'recover_in_progress', 'tracking_link_expired',
  'origin_not_allowed', 'email_taken', 'invalid_credentials', 'too_many_attempts', 'invitation_not_found', 'invitation_email_mismatch', 'not_a_member',
  'last_owner', 'dashboard_not_built', 'session_ended', 'session_required', 'session_expired', 'session_check_unavailable', 'too_many_uploads', 'uploads_busy',
  'email_not_verified', 'token_not_found', 'mail_unavailable', 'organization_limit_reached', 'payment_gateway_unavailable', 'payment_gateway_not_configured',
  'no_recipient_email', 'certificate_revoked',
  'no_domain_verification', 'domain_refused', 'domain_unreachable', 'domain_proof_mismatch',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorCodeSchema = z.enum(ERROR_CODES).meta({
  id: 'ErrorCode',
  description: 'Every error code the platform answers (both services and the gateway share one list); each is documented at its `type` URL.',
});

/** The fields every Problem Details answer carries, besides `code`. */
export const problemFields = {
  type: z.url().meta({ description: 'The documentation URL of the code: `ERROR_DOCS_BASE_URL` followed by the code (default https://docs.partner-platform.example/errors/<code>).' }),
  title: z.string().meta({ description: "The HTTP status's reason phrase." }),
  status: z.int().min(400).max(599).meta({ description: 'The HTTP status of this answer.' }),
  detail: z.string().meta({ description: 'Text for a person about this occurrence.' }),
  error: z.string().meta({ description: 'The same text as `detail`, kept for clients written before Problem Details.' }),
};

/** The one error shape of both services: a Problem Details document (RFC 9457) with a stable `code`. */
export const problemSchema = z.object({ ...problemFields, code: errorCodeSchema }).meta({
  id: 'Error',
  description:
    'Every error answer is a Problem Details document (RFC 9457, `application/problem+json`). `code` is stable and\n' +
    'documented; `type` is its documentation URL; `error` repeats `detail` for clients written against `{error, code}`.\n',
});

/** A 422: the problem plus one entry per field that failed. */
export const validationProblemSchema = z
  .object({
    ...problemFields,
    code: z.literal('validation_failed'),
    details: z.array(z.object({ path: z.string().meta({ examples: ['certificates.3.issue_date'] }), message: z.string() })),
  })
  .meta({ id: 'ValidationError' });

export type Problem = z.infer<typeof problemSchema>;

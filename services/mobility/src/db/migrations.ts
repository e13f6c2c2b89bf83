import type { Migration } from '@platform/service-kit/db';
import * as outbox from './migrations/0001_outbox';
import * as partnersAndApiKeys from './migrations/0002_partners_and_api_keys';
import * as fleetEstimatesRides from './migrations/0003_fleet_estimates_rides';
import * as deliveries from './migrations/0004_deliveries';
import * as webhooks from './migrations/0100_webhooks';
import * as apiKeyLifecycle from './migrations/0101_api_key_lifecycle';
import * as driverScopeAndDisable from './migrations/0110_driver_scope_and_disable';
import * as outboxNotify from './migrations/0120_outbox_notify';
import * as webhookOperations from './migrations/0130_webhook_operations';
import * as outboxTraceparent from './migrations/0140_outbox_traceparent';
import * as eventPasses from './migrations/0200_event_passes';
import * as jobListIndexes from './migrations/0210_job_list_indexes';
import * as deliveryQuotes from './migrations/0211_delivery_quotes';
import * as driverSessions from './migrations/0220_driver_sessions';
import * as sandboxLivemode from './migrations/0230_sandbox_livemode';
import * as deliveryTracking from './migrations/0240_delivery_tracking';
import * as apiKeyChangeNotify from './migrations/0260_api_key_change_notify';
import * as webhookRecoverCoalescing from './migrations/0275_webhook_recover_coalescing';
import * as webhookAttemptHeaders from './migrations/0285_webhook_attempt_headers';
import * as trackingPageBranding from './migrations/0295_tracking_page_branding';
import * as webhookClaimLease from './migrations/0300_webhook_claim_lease';
import * as auditLog from './migrations/0310_audit_log';
import * as webhookClaimToken from './migrations/0320_webhook_claim_token';
import * as webhookDeliveriesFillfactor from './migrations/0330_webhook_deliveries_fillfactor';
import * as webhookRecoverPerPartner from './migrations/0340_webhook_recover_per_partner';
import * as auditModeChanges from './migrations/0370_audit_mode_changes';
import * as searchPrefixIndexes from './migrations/0380_search_prefix_indexes';

/** Every migration of the `mobility` schema, in order. A merged migration is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '0001_outbox': outbox,
  '0002_partners_and_api_keys': partnersAndApiKeys,
  '0003_fleet_estimates_rides': fleetEstimatesRides,
  '0004_deliveries': deliveries,
  '0100_webhooks': webhooks,
  '0101_api_key_lifecycle': apiKeyLifecycle,
  '0110_driver_scope_and_disable': driverScopeAndDisable,
  '0120_outbox_notify': outboxNotify,
  '0130_webhook_operations': webhookOperations,
  '0140_outbox_traceparent': outboxTraceparent,
  '0200_event_passes': eventPasses,
  '0210_job_list_indexes': jobListIndexes,
  '0211_delivery_quotes': deliveryQuotes,
  '0220_driver_sessions': driverSessions,
  '0230_sandbox_livemode': sandboxLivemode,
  '0240_delivery_tracking': deliveryTracking,
  '0260_api_key_change_notify': apiKeyChangeNotify,
  '0275_webhook_recover_coalescing': webhookRecoverCoalescing,
  '0285_webhook_attempt_headers': webhookAttemptHeaders,
  '0295_tracking_page_branding': trackingPageBranding,
  '0300_webhook_claim_lease': webhookClaimLease,
  '0310_audit_log': auditLog,
  '0320_webhook_claim_token': webhookClaimToken,
  '0330_webhook_deliveries_fillfactor': webhookDeliveriesFillfactor,
  '0340_webhook_recover_per_partner': webhookRecoverPerPartner,
  '0370_audit_mode_changes': auditModeChanges,
  '0380_search_prefix_indexes': searchPrefixIndexes,
};

import type { Migration } from '@platform/service-kit/db';
import * as core from './migrations/0001_core';
import * as payments from './migrations/0002_payments';
import * as apiKeyLifecycle from './migrations/0003_api_key_lifecycle';
import * as usersPerOrganization from './migrations/0010_users_per_organization';
import * as paymentWebhookBodies from './migrations/0011_payment_webhook_bodies';
import * as certificateTemplates from './migrations/0020_certificate_templates';
import * as accounts from './migrations/0030_accounts';
import * as apiKeyChangeNotify from './migrations/0040_api_key_change_notify';
import * as certificateDocumentStatus from './migrations/0045_certificate_document_status';
import * as accountVerification from './migrations/0050_account_verification';
import * as credentialStatusList from './migrations/0060_credential_status_list';
import * as templateDesign from './migrations/0062_template_design';
import * as auditLog from './migrations/0070_audit_log';
import * as creditTopUps from './migrations/0080_credit_top_ups';
import * as testMode from './migrations/0090_test_mode';
import * as issuers from './migrations/0091_issuers';
import * as certificateRecipients from './migrations/0095_certificate_recipients';
import * as invoices from './migrations/0105_invoices';
import * as auditModeChanges from './migrations/0110_audit_mode_changes';
import * as invitationMailed from './migrations/0111_invitation_mailed';

/** Every migration of the `certificate` schema, in order. A merged migration is never edited: add a new one. */
export const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_payments': payments,
  '0003_api_key_lifecycle': apiKeyLifecycle,
  '0010_users_per_organization': usersPerOrganization,
  '0011_payment_webhook_bodies': paymentWebhookBodies,
  '0020_certificate_templates': certificateTemplates,
  '0030_accounts': accounts,
  '0040_api_key_change_notify': apiKeyChangeNotify,
  '0045_certificate_document_status': certificateDocumentStatus,
  '0050_account_verification': accountVerification,
  '0060_credential_status_list': credentialStatusList,
  '0062_template_design': templateDesign,
  '0070_audit_log': auditLog,
  '0080_credit_top_ups': creditTopUps,
  '0090_test_mode': testMode,
  '0091_issuers': issuers,
  '0095_certificate_recipients': certificateRecipients,
  '0105_invoices': invoices,
  '0110_audit_mode_changes': auditModeChanges,
  '0111_invitation_mailed': invitationMailed,
};

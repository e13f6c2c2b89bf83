import type { z } from 'zod';
import { certificateStatus } from './certificate-status';
import type { certificateSchema } from './certificates.contract';
import type { CertificateRow } from './certificates.repository';
import { formatVerificationCode } from './verification-code';

/** A certificate as the admin API answers it. */
export function presentCertificate(row: CertificateRow): z.infer<typeof certificateSchema> {
  return {
    id: row.id,
    verification_code: formatVerificationCode(row.verification_code),
    certificate_number: row.certificate_number,
    recipient_name: row.recipient_name,
    program_title: row.program_title,
    issue_date: row.issue_date,
    expires_on: row.expires_on,
    status: certificateStatus(row.status, row.expires_on),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    template_id: row.template_id,
    template_version: row.template_version,
    custom_fields: row.custom_fields,
    livemode: row.livemode,
    recipient_email: row.recipient_email,
    delivery: row.delivery_status
      ? { status: row.delivery_status, last_error: row.delivery_last_error, sent_at: row.delivery_sent_at?.toISOString() ?? null }
      : null,
  };
}

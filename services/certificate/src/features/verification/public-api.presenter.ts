import { TEST_CERTIFICATE_REASON, verifiedStatus } from '../certificates';
import type { CreditsRow, FoundVerificationRow } from './public-api.repository';
import type { verificationSchema } from './public-api.contract';
import type { creditsSchema } from '../../http-contract';
import type { z } from 'zod';

/** `GET /api/v1/credits`'s answer: the Express route and the fast lane send exactly this (a test key: the live balance, `livemode: false`). */
export function creditsView(row: CreditsRow, livemode: boolean): z.infer<typeof creditsSchema> {
  return { organization: row.organization_name, balance: row.balance, plan: row.plan, livemode };
}

/** `GET /api/v1/verify/{code}`'s answer for a found certificate: the Express route and the fast lane send exactly this. */
export function verificationView(row: FoundVerificationRow): z.infer<typeof verificationSchema> {
  const status = verifiedStatus(row.status, row.expires_on, row.livemode);
  return {
    valid: status === 'valid',
    recipient_name: row.recipient_name,
    program_title: row.program_title,
    organization_name: row.organization_name,
    issue_date: row.issue_date,
    certificate_number: row.certificate_number,
    certificate_status: status,
    ...(status === 'test' ? { reason: TEST_CERTIFICATE_REASON } : {}),
  };
}

import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import { pageOf, type PageRequest } from '@platform/service-kit/pagination';
import type { Knex } from '@platform/service-kit/db';
import { spendCredits } from '../credits';
import { customFieldIssues } from '../templates';
import type { TemplatesService } from '../templates';
import type { CertificateRow, CertificatesRepository } from './certificates.repository';
import type { NewCertificate } from './certificates.schema';
import { newVerificationCode } from './verification-code';
import { presentCertificate } from './certificates.presenter';
import { newRecipientIdentity } from './recipient-identity';

function generatedNumber(issueDate: string): string {
  return `CERT-${issueDate.slice(0, 4)}-${randomBytes(5).toString('hex').toUpperCase()}`;
}

/**
 * Which template version each certificate is issued with. A `template_id` names an active template of the organization
 * and the custom field values match it; every problem of every row is one 422 detail (`certificates.3.custom_fields.grade`).
 */
async function templateVersionsFor(templates: Pick<TemplatesService, 'forIssue'>, organizationId: string, inputs: NewCertificate[], batch: boolean) {
  const found = await templates.forIssue(organizationId, inputs.flatMap((input) => (input.template_id ? [input.template_id] : [])));
  const issues = inputs.flatMap((input, index) => {
    const prefix = batch ? `certificates.${index}.` : '';
    const template = input.template_id ? found.get(input.template_id) : null;
    if (input.template_id && !template) return [{ path: `${prefix}template_id`, message: 'does not name a template of this organization' }];
    if (template?.status === 'archived') return [{ path: `${prefix}template_id`, message: 'names an archived template' }];
    return customFieldIssues(template ?? null, input.custom_fields ?? {}, prefix);
  });
  if (issues.length) throw new ValidationError(issues);
  return inputs.map((input) => (input.template_id ? found.get(input.template_id)!.version : null));
}

/** Takes one credit per reference inside the issuing transaction (throws 402 when the balance is short); answers the balance left. */
export type SpendCredits = (trx: Knex.Transaction, organizationId: string, references: string[]) => Promise<number>;

/** Sends recipient mails (the recipients feature): in the background after an issue, or now for a resend. */
export interface RecipientMailer {
  /** Called once the issuing transaction has committed: sends the pending mails of `rows` in the background. */
  dispatch(rows: CertificateRow[]): void;
  /** Sends the mail of a `pending` certificate now; answers the certificate with the attempt's delivery. */
  send(row: CertificateRow): Promise<CertificateRow>;
}

/** Without recipient mail (the unit tests' service): nothing is sent, a resend records nothing. */
const NO_DELIVERIES: RecipientMailer = { dispatch: () => {}, send: async (row) => row };

/**
 * Issuing costs one credit per certificate; a batch is all or nothing, in one transaction. In test mode (`livemode`
 * false) issuing spends nothing (no ledger row) and makes test certificates, which every read and revoke finds only in
 * test mode.
 */
export function createCertificatesService(
  db: Knex,
  repository: CertificatesRepository,
  templates: Pick<TemplatesService, 'forIssue'>,
  spend: SpendCredits = spendCredits,
  deliveries: RecipientMailer = NO_DELIVERIES,
) {
  async function issueAll(organizationId: string, livemode: boolean, inputs: NewCertificate[], batch: boolean) {
    const versions = await templateVersionsFor(templates, organizationId, inputs, batch);
    const rows = inputs.map((input, index) => {
      const identity = input.recipient_email ? newRecipientIdentity(input.recipient_email) : null;
      return {
        id: newId('cert'),
        organization_id: organizationId,
        verification_code: newVerificationCode(),
        certificate_number: input.certificate_number ?? generatedNumber(input.issue_date),
        recipient_name: input.recipient_name,
        program_title: input.program_title,
        issue_date: input.issue_date,
        expires_on: input.expires_on ?? null,
        template_id: input.template_id ?? null,
        template_version: versions[index]!,
        custom_fields: input.custom_fields ?? {},
        livemode,
        recipient_email: input.recipient_email ?? null,
        recipient_identity_salt: identity?.salt ?? null,
        recipient_identity_hash: identity?.hash ?? null,
        // The pending delivery is the outbox: stored with the certificate, sent once the transaction has committed.
        delivery_status: input.recipient_email ? ('pending' as const) : null,
      };
    });
    try {
      const issued = await db.transaction(async (trx) => {
        if (livemode) await spend(trx, organizationId, rows.map((row) => row.id));
        return repository.insertMany(trx, rows);
      });
      deliveries.dispatch(issued);
      return issued;
    } catch (error) {
      if ((error as { code?: string }).code === '23505' && String((error as { constraint?: string }).constraint).includes('certificate_number')) {
        throw new ConflictError('A certificate with this certificate_number already exists', 'certificate_number_taken');
      }
      throw error;
    }
  }

  return {
    async issue(organizationId: string, input: NewCertificate, livemode = true) {
      const [row] = await issueAll(organizationId, livemode, [input], false);
      return presentCertificate(row!);
    },
    async issueBatch(organizationId: string, inputs: NewCertificate[], livemode = true) {
      return (await issueAll(organizationId, livemode, inputs, true)).map(presentCertificate);
    },
    async get(organizationId: string, id: string, livemode = true) {
      const row = await repository.find(organizationId, id, livemode);
      if (!row) throw new NotFoundError('Certificate not found');
      return presentCertificate(row);
    },
    async list(organizationId: string, page: PageRequest, livemode = true) {
      return pageOf(await repository.list(organizationId, livemode, page.limit + 1, page.cursor), page.limit, presentCertificate);
    },
    async revoke(organizationId: string, id: string, livemode = true) {
      const row = await repository.revoke(organizationId, id, livemode);
      if (!row) throw new NotFoundError('Certificate not found');
      return presentCertificate(row);
    },
    /**
     * Mails the recipient again, now: answers the certificate with the attempt's delivery (`sent`, or `failed`/`bounced`
     * with the server's message). 409 when it has no `recipient_email` or is revoked (nothing is sent then).
     */
    async resend(organizationId: string, id: string, livemode = true) {
      const found = await repository.find(organizationId, id, livemode);
      if (!found) throw new NotFoundError('Certificate not found');
      if (!found.recipient_email) throw new ConflictError('This certificate was issued without a recipient_email: there is nobody to mail', 'no_recipient_email');
      if (found.status === 'revoked') throw new ConflictError('This certificate is revoked: its recipient is not mailed again', 'certificate_revoked');
      const pending = await repository.markPending(organizationId, id, livemode);
      if (!pending) throw new NotFoundError('Certificate not found');
      return presentCertificate(await deliveries.send(pending));
    },
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;

/**
 * The certificate service's operator commands, shared by its own entry (`cli.ts`, `node dist/cli/cli.js`) and the
 * platform CLI (`pnpm platform certificate …`, scripts/platform.ts).
 */
import { createLogger } from '@platform/service-kit/logger';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { newId } from '@platform/service-kit/ids';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { parseOrThrow } from '@platform/service-kit/validation';
import type { Knex } from '@platform/service-kit/db';
import { CERTIFICATE_SCHEMA, certificateConfigSchema, type CertificateConfig } from '../config';
import { migrations } from '../db/migrations';
import { accountMails } from '../features/accounts/account-mails';
import { signUpSchema } from '../features/accounts/accounts.schema';
import { newCertificateSchema } from '../features/certificates/certificates.schema';
import { createMailer } from '../features/mail/mailer';
import { buildServices, type CertificateServices } from '../services';

export const CERTIFICATE_USAGE = `usage:
  cli keys create --org <id> [--org-name <name>] --user <id> [--name <key name>] [--test]   (--test: a test-mode key, ck_test_…)
  cli create-key …   (the same as keys create)
  cli issue --org <id> --recipient <name> --program <title> --date <YYYY-MM-DD> [--number <n>] [--expires <YYYY-MM-DD>]
  cli credits --org <id>
  cli retention   (deletes payment-webhook bodies older than PAYMENT_WEBHOOK_RETENTION_DAYS, once)
  cli accounts create-owner --email <email> [--password <password> | OWNER_PASSWORD=…] --org-name <name> [--name <person>]
  cli organizations verify <org id>   (the operator checked the name is theirs: credential pages say "verified issuer")
  cli organizations verify-domain <org id> <domain>   (the operator checked the domain is theirs: credentials name https://<domain>, pages say "verified domain <domain>")`;

/** Every flag the commands read that takes a value. */
export const CERTIFICATE_FLAGS = ['org', 'org-name', 'user', 'name', 'recipient', 'program', 'date', 'number', 'expires', 'email', 'password', 'domain'] as const;
/** Every flag that takes none (`--test`); the entry points hand a given one over as `'true'`. */
export const CERTIFICATE_SWITCHES = ['test'] as const;

export type Options = Record<string, string | undefined>;

/** A missing flag: the entry points print it with their usage and exit 2. */
export class MissingFlagError extends Error {}

/** An API key for the organization (made with its first user when new); `--test` makes a test-mode one (`ck_test_…`). */
const createKey = async ({ organizations, apiKeys }: CertificateServices, o: Options) => {
  await organizations.ensureWithUser({ org: required(o, 'org'), org_name: o['org-name'], sub: required(o, 'user') });
  return apiKeys.create({ organizationId: o.org!, userId: o.user!, name: o.name ?? 'first key', livemode: !switchOn(o, 'test') });
};

export const certificateCommands: Record<string, (services: CertificateServices, o: Options) => Promise<unknown>> = {
  'keys create': createKey,
  'create-key': createKey,
  issue: async ({ organizations, certificates }, o) => {
    const input = parseOrThrow(newCertificateSchema, {
      recipient_name: required(o, 'recipient'),
      program_title: required(o, 'program'),
      issue_date: required(o, 'date'),
      ...(o.number ? { certificate_number: o.number } : {}),
      ...(o.expires ? { expires_on: o.expires } : {}),
    });
    const organization = await organizations.find(required(o, 'org'));
    if (!organization) throw new Error(`organization ${o.org} does not exist: create a key for it first`);
    return certificates.issue(o.org!, input);
  },
  credits: async ({ organizations }, o) => organizations.find(required(o, 'org')),
  retention: async ({ runWebhookBodyRetention }) => runWebhookBodyRetention(),
  'accounts create-owner': (services, o) => createFirstOwner(services, o),
  'organizations verify': async ({ organizations }, o) => {
    const id = o.org ?? o.argument;
    if (!id) throw new MissingFlagError('the organization id is required');
    const verified = await organizations.verifyName(id);
    if (!verified) throw new Error(`organization ${id} does not exist`);
    return { id: verified.id, name: verified.name, name_verified_at: verified.name_verified_at.toISOString() };
  },
  /** Without the proof file: the operator's word that the organization controls the domain (checked some other way). */
  'organizations verify-domain': async ({ issuers }, o) => {
    const id = o.org ?? o.argument;
    const domain = o.domain ?? o.argument2;
    if (!id || !domain) throw new MissingFlagError('the organization id and the domain are required');
    return issuers.markDomainVerified(id, domain);
  },
};

/**
 * The operator's first owner: a dashboard account (email and password, at least 10 characters) owning a new
 * organization. Exported for the platform CLI; answers the account and organization, or throws (email taken: 409).
 */
export async function createFirstOwner({ accounts }: Pick<CertificateServices, 'accounts'>, o: Options) {
  const input = parseOrThrow(signUpSchema, {
    email: required(o, 'email'),
    password: o.password ?? process.env.OWNER_PASSWORD ?? required(o, 'password'),
    name: o.name ?? required(o, 'email').split('@')[0],
    organization_name: required(o, 'org-name'),
  });
  return accounts.createOwner({ ...input, organization_name: input.organization_name! });
}

/** Whether a switch (`--test`) was given. */
function switchOn(options: Options, name: (typeof CERTIFICATE_SWITCHES)[number]): boolean {
  return options[name] !== undefined && options[name] !== 'false';
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new MissingFlagError(`--${name} is required`);
  return value;
}

export function loadCertificateConfig(processName: string): CertificateConfig {
  return loadConfigOrExit(certificateConfigSchema, processName);
}

/** The certificate database (migrated, as the server does on start) and its services; `close()` when done. */
export async function openCertificateOperator(config: CertificateConfig, processName = 'certificate-cli') {
  const db: Knex = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, createLogger(processName, 'warn'), 2);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const services = buildServices({ db, config }, mailer);
  return {
    config,
    services,
    /** A new organization (free plan credits granted once) with its first user, the owner; both ids are generated. */
    async createOrganization(name: string): Promise<{ organizationId: string; ownerId: string }> {
      const organizationId = newId('org');
      const ownerId = newId('usr');
      await services.organizations.ensureWithUser({ org: organizationId, org_name: name, sub: ownerId });
      return { organizationId, ownerId };
    },
    /**
     * The dashboard's way into an organization the CLI made: an owner invitation for `email` (only an account that
     * proves that address can accept it), mailed through SMTP_URL when one is set. The link is always in the answer, so
     * without mail, or when the mail is refused, the operator hands it over; the organization stays made either way.
     */
    async inviteOwner(organizationId: string, organizationName: string, ownerId: string, email: string): Promise<OwnerInvitation> {
      const invitation = await services.members.invite(organizationId, ownerId, { role: 'owner', email, mail: false });
      const view = { id: invitation.id, email, role: invitation.role, expires_at: invitation.expires_at, invite_url: invitation.invite_url };
      if (!config.SMTP_URL) return { ...view, mailed: false, mail_problem: 'no mail configured (SMTP_URL is unset)' };
      try {
        await mailer.send(accountMails(config.PUBLIC_BASE_URL).invitation(email, { organizationName }, invitation.invite_url, config.INVITATION_TTL_DAYS));
      } catch {
        return { ...view, mailed: false, mail_problem: 'the mail server refused the invitation mail' };
      }
      return { ...view, mailed: true, ...(config.MAIL_INBOX_URL && config.NODE_ENV !== 'production' ? { mail_inbox_url: config.MAIL_INBOX_URL } : {}) };
    },
    async close(): Promise<void> {
      await db.destroy();
    },
  };
}

export type CertificateOperator = Awaited<ReturnType<typeof openCertificateOperator>>;

/** An owner invitation made by the operator CLI: its link, and whether it was mailed (and why not). */
export interface OwnerInvitation {
  id: string;
  email: string;
  role: string;
  expires_at: string;
  invite_url: string;
  mailed: boolean;
  /** Set when not mailed: why, in words for the operator. */
  mail_problem?: string;
  /** Development's local inbox (MAIL_INBOX_URL) where the mail can be read. */
  mail_inbox_url?: string;
}

/**
 * `pnpm platform org create --owner-email`: the quick start's organization gets a way into the dashboard. The owner's
 * invitation goes to the local mail catcher `pnpm start` runs (a real SMTP conversation), and the link in that mail
 * signs the owner up into the organization as its owner; without mail the command prints the one-time link instead.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createDatabase, type Knex } from '@platform/service-kit/db';
import { createLogger } from '@platform/service-kit/logger';
import { parseConfig } from '@platform/service-kit/config';
import { createRunDatabase, dropRunDatabase } from '@platform/test-kit';
import { startLocalMailCatcher, type CaughtMail, type LocalMailCatcher } from '../../scripts/local-mail';
import { createApp as createCertificateApp } from '../../services/certificate/src/app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../../services/certificate/src/config';
import { buildServices as buildCertificateServices } from '../../services/certificate/src/services';
import { platform, platformJson } from './helpers/platform-cli';

jest.setTimeout(300000);

const ORIGIN = 'http://127.0.0.1:8080';
const PASSWORD = 'correct horse battery staple';

let databaseUrl: string;
let catcher: LocalMailCatcher;
let db: Knex;
let app: ReturnType<typeof createCertificateApp>;
/** The CLI as a terminal of `pnpm start` runs it: the catcher's SMTP_URL and inbox (from .data/running.json there). */
let withMail: NodeJS.ProcessEnv;
let withoutMail: NodeJS.ProcessEnv;

beforeAll(async () => {
  databaseUrl = await createRunDatabase('platform_cli_invite');
  catcher = await startLocalMailCatcher({ smtp: 0, inbox: 0 });
  withoutMail = { DATABASE_URL: databaseUrl, NODE_ENV: 'development', JWT_SECRET: undefined, SMTP_URL: undefined, MAIL_INBOX_URL: undefined, PUBLIC_BASE_URL: undefined };
  withMail = { ...withoutMail, SMTP_URL: catcher.smtpUrl, MAIL_INBOX_URL: catcher.inboxUrl };
  // The service the dashboard talks to, on the same database and mail catcher (it mails the sign-up link).
  await platform(['org', 'create', '--name', 'Migrated', '--owner-email', 'first@example.com'], withoutMail); // applies the migrations
  const config = parseConfig(certificateConfigSchema, { DATABASE_URL: databaseUrl, SMTP_URL: catcher.smtpUrl, NODE_ENV: 'development' });
  db = createDatabase(databaseUrl, CERTIFICATE_SCHEMA, 3);
  app = createCertificateApp({ db, config, logger: createLogger('certificate', 'silent') }, buildCertificateServices({ db, config }));
});
afterAll(async () => {
  await db?.destroy();
  await catcher?.stop();
  if (databaseUrl) await dropRunDatabase(databaseUrl);
});

const newEmail = () => `owner.${randomBytes(4).toString('hex')}@example.com`;

async function inboxFor(to: string): Promise<CaughtMail[]> {
  const messages = (await (await fetch(`${catcher.inboxUrl}messages`)).json()) as CaughtMail[];
  return messages.filter((message) => message.to.includes(to));
}

function tokenIn(text: string, kind: 'invite' | 'verify-email'): string {
  const token = new RegExp(`/dashboard/${kind}/([A-Za-z0-9_-]+)`).exec(text)?.[1];
  if (!token) throw new Error(`no ${kind} link in: ${text}`);
  return token;
}

interface Created {
  organization: { id: string; name: string };
  owner: { id: string; email: string };
  invitation: { id: string; email: string; role: string; invite_url: string; mailed: boolean; mail_inbox_url?: string; mail_problem?: string };
}

describe('pnpm platform org create --owner-email', () => {
  it('mails the owner an invitation to the local inbox, and its link signs the owner up into the organization as owner', async () => {
    const email = newEmail();
    const created = await platformJson<Created>(['org', 'create', '--name', 'Acme Rides', '--owner-email', email], withMail);
    expect(created.invitation).toMatchObject({ email, role: 'owner', mailed: true, mail_inbox_url: catcher.inboxUrl });

    const [mail, ...more] = await inboxFor(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('You are invited to Acme Rides');
    const token = tokenIn(mail!.text, 'invite');
    expect(mail!.text).toContain(`http://127.0.0.1:8080/dashboard/invite/${token}`);
    expect(created.invitation.invite_url).toBe(`http://127.0.0.1:8080/dashboard/invite/${token}`);

    // What the dashboard's invite page shows, then its sign-up with the token and the confirmation link mailed next.
    const described = await request(app).get(`/accounts/v1/invitations/${token}`).expect(200);
    expect(described.body).toMatchObject({ organization_name: 'Acme Rides', role: 'owner', email });
    await request(app).post('/accounts/v1/signup').set('Origin', ORIGIN).send({ email, password: PASSWORD, name: 'Ada Obi', invitation_token: token }).expect(202);
    const confirmation = (await inboxFor(email)).find((m) => m.subject === 'Confirm your email address');
    const verified = await request(app).post('/accounts/v1/verify-email').set('Origin', ORIGIN).send({ token: tokenIn(confirmation!.text, 'verify-email'), password: PASSWORD }).expect(201);
    expect(verified.body.organization).toEqual({ id: created.organization.id, name: 'Acme Rides', role: 'owner' });
    expect(await db('memberships').where({ organization_id: created.organization.id }).select('role')).toEqual([{ role: 'owner' }]);
    // The link worked once.
    await request(app).get(`/accounts/v1/invitations/${token}`).expect(404);
  });

  it('says where the mail went; with --quiet stdout is the organization id alone and the invitation line goes to stderr', async () => {
    const email = newEmail();
    const human = await platform(['org', 'create', '--name', 'Human Output', '--owner-email', email], withMail);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Invitation to the dashboard mailed to ${email} (read it in the local mail inbox: ${catcher.inboxUrl})`);

    const quiet = await platform(['org', 'create', '--name', 'Quiet', '--owner-email', email, '--quiet'], withMail);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^org_[0-9a-z]{20}\n$/);
    expect(quiet.stderr).toContain(`Invitation to the dashboard mailed to ${email}`);
    expect(await inboxFor(email)).toHaveLength(2);
  });

  it('without mail prints the one-time link, which works for that address only', async () => {
    const email = newEmail();
    const human = await platform(['org', 'create', '--name', 'No Mail', '--owner-email', email], withoutMail);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Invitation to the dashboard not mailed: no mail configured (SMTP_URL is unset). Give ${email} this one-time link (7 days):`);
    const token = tokenIn(human.stdout, 'invite');
    expect(await inboxFor(email)).toEqual([]);
    const described = await request(app).get(`/accounts/v1/invitations/${token}`).expect(200);
    expect(described.body).toMatchObject({ organization_name: 'No Mail', role: 'owner', email });
    const other = await request(app).post('/accounts/v1/signup').set('Origin', ORIGIN).send({ email: newEmail(), password: PASSWORD, name: 'Someone Else', invitation_token: token }).expect(403);
    expect(other.body.code).toBe('invitation_email_mismatch');

    const quiet = await platform(['org', 'create', '--name', 'No Mail Quiet', '--owner-email', email, '--quiet'], withoutMail);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^org_[0-9a-z]{20}\n$/);
    expect(quiet.stderr).toMatch(/one-time link \(7 days\):\n {2}http:\/\/127\.0\.0\.1:8080\/dashboard\/invite\/[A-Za-z0-9_-]{20,}\n$/);
  });

  it('keeps the organization and prints the link when the mail server is gone', async () => {
    const email = newEmail();
    const gone = await platformJson<Created>(['org', 'create', '--name', 'Mail Down', '--owner-email', email], { ...withMail, SMTP_URL: 'smtp://127.0.0.1:1' });
    expect(gone.invitation).toMatchObject({ mailed: false, mail_problem: 'the mail server refused the invitation mail', invite_url: expect.stringMatching(/\/dashboard\/invite\//) });
    expect(await db('organizations').where({ id: gone.organization.id }).pluck('name')).toEqual(['Mail Down']);
  });
});

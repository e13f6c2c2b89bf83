import pino from 'pino';
import { createDatabase, type Knex } from '@platform/service-kit/db';
import { parseConfig } from '@platform/service-kit/config';
import { runDatabaseUrl } from '@platform/test-kit';
import type { Express } from 'express';
import { createApp, type CertificateDeps } from '../../src/app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema, type CertificateConfig } from '../../src/config';
import { createMailer } from '../../src/features/mail/mailer';
import { buildServices, type CertificateServices } from '../../src/services';
import { startTestMailbox, type TestMailbox } from './mailbox';

export interface TestContext {
  app: Express;
  db: Knex;
  config: CertificateConfig;
  services: CertificateServices;
  /** Where the service's mail goes: an SMTP server on loopback (unless `SMTP_URL` is given). */
  mailbox: TestMailbox;
  close(): Promise<void>;
}

/**
 * The app on this run's database, with config from the given overrides; one per test file. Every sign-up of a file
 * comes from one address, so the per-address sign-up limit is lifted unless a test sets it; so are the governor's
 * starts per account a minute (a file's tests make many templates and batches quickly; test/governor.test.ts sets them).
 */
export function createTestContext(env: Record<string, string> = {}, deps: Pick<CertificateDeps, 'sessionEvents' | 'redis'> = {}): TestContext {
  const url = runDatabaseUrl();
  // Tests that read a document expect it on the first request; the ones about 202 set a short wait themselves.
  const config = parseConfig(certificateConfigSchema, { DATABASE_URL: url, NODE_ENV: 'test', SIGN_UP_MAX_PER_ADDRESS: '1000000', GOVERNOR_RENDERS_PER_ACCOUNT_PER_MINUTE: '1000000', GOVERNOR_BULK_PER_ACCOUNT_PER_MINUTE: '1000000', DOCUMENT_RENDER_WAIT_MS: '30000', ...env });
  const db = createDatabase(url, CERTIFICATE_SCHEMA, 5);
  const mailbox = startTestMailbox();
  // Real SMTP through nodemailer; the mailbox's port is known once it listens, so the first mail waits for that.
  const mailer = config.SMTP_URL ? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) : { send: async (message: Parameters<ReturnType<typeof createMailer>['send']>[0]) => createMailer({ smtpUrl: await mailbox.url, from: config.MAIL_FROM }).send(message) };
  const services = buildServices({ db, config, ...deps }, mailer);
  const app = createApp({ db, config, logger: pino({ level: 'silent' }), ...deps }, services);
  const close = async () => {
    await services.recipientDeliveries.idle(); // recipient mails sent after an issue's answer
    await services.documents.close(); // the render workers
    await services.apiKeys.flushUsage(); // no last_used_at write outlives the pool
    await db.destroy();
    await mailbox.close();
  };
  return { app, db, config, services, mailbox, close };
}

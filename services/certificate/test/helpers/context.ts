import pino from 'pino';
import { createDatabase, parseConfig, type Knex } from '@platform/service-kit';
import { runDatabaseUrl } from '@platform/test-kit';
import type { Express } from 'express';
import { createApp, type CertificateDeps } from '../../src/app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema, type CertificateConfig } from '../../src/config';
import { buildServices, type CertificateServices } from '../../src/services';

export interface TestContext {
  app: Express;
  db: Knex;
  config: CertificateConfig;
  services: CertificateServices;
  close(): Promise<void>;
}

/** The app on this run's database, with config from the given overrides; one per test file. */
export function createTestContext(env: Record<string, string> = {}, deps: Pick<CertificateDeps, 'sessionEvents'> = {}): TestContext {
  const url = runDatabaseUrl();
  // Tests that read a document expect it on the first request; the ones about 202 set a short wait themselves.
  const config = parseConfig(certificateConfigSchema, { DATABASE_URL: url, NODE_ENV: 'test', DOCUMENT_RENDER_WAIT_MS: '30000', ...env });
  const db = createDatabase(url, CERTIFICATE_SCHEMA, 5);
  const services = buildServices({ db, config, ...deps });
  const app = createApp({ db, config, logger: pino({ level: 'silent' }), ...deps }, services);
  const close = async () => {
    await services.documents.close(); // the render workers
    await services.apiKeys.flushUsage(); // no last_used_at write outlives the pool
    await db.destroy();
  };
  return { app, db, config, services, close };
}

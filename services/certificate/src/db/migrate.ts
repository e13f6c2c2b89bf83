import { createLogger } from '@platform/service-kit/logger';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../config';
import { migrations } from './migrations';

async function main() {
  const config = loadConfigOrExit(certificateConfigSchema, 'certificate');
  const logger = createLogger('certificate-migrate', config.LOG_LEVEL);
  const db = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, logger, 1);
  await db.destroy();
}

void main();

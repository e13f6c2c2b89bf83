import { createLogger } from '@platform/service-kit/logger';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from '../config';
import { migrations } from './migrations';

async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility');
  const logger = createLogger('mobility-migrate', config.LOG_LEVEL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger, 1);
  await db.destroy();
}

void main();

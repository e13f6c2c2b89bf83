import { createLogger, loadConfigOrExit, openServiceDatabase } from '@platform/service-kit';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from '../config';
import { migrations } from './migrations';

async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility');
  const logger = createLogger('mobility-migrate', config.LOG_LEVEL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger, 1);
  await db.destroy();
}

void main();

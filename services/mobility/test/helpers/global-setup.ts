import { setUpRunResources } from '@platform/test-kit';
import { MOBILITY_SCHEMA } from '../../src/config';
import { migrations } from '../../src/db/migrations';

export default () => setUpRunResources({ label: 'mobility', schema: MOBILITY_SCHEMA, migrations, redis: true });

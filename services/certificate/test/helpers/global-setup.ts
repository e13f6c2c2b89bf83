import { setUpRunResources } from '@platform/test-kit';
import { CERTIFICATE_SCHEMA } from '../../src/config';
import { migrations } from '../../src/db/migrations';

export default () => setUpRunResources({ label: 'certificate', schema: CERTIFICATE_SCHEMA, migrations });

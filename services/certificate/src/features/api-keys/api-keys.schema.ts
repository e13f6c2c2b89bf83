import { createApiKeyBodySchema } from '@platform/api-keys';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

/** The create body: certificate keys carry no scopes, are live (default) or test mode, and unknown fields are refused. */
export const newApiKeySchema = createApiKeyBodySchema({
  strict: true,
  testMode: { description: '`test` creates a test-mode key (`ck_test_…`): it verifies test certificates (as `test`, never `valid`), and `GET /api/v1/credits` answers `livemode: false`.' },
}).meta({
  id: 'NewApiKey',
  examples: [{ name: 'Production server' }, { name: 'Quarterly audit', expires_at: '2030-01-01T00:00:00Z' }, { name: 'Staging (test mode)', mode: 'test' }],
});

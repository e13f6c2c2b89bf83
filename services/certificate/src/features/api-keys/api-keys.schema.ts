import { createApiKeyBodySchema } from '@platform/api-keys';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

/** The create body: certificate keys carry no scopes, and unknown fields are refused. */
export const newApiKeySchema = createApiKeyBodySchema({ strict: true }).meta({
  id: 'NewApiKey',
  examples: [{ name: 'Production server' }, { name: 'Quarterly audit', expires_at: '2030-01-01T00:00:00Z' }],
});

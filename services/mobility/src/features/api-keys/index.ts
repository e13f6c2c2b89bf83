/** The api-keys feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { apiKeysContract } from './api-keys.contract';
export { partnerScope, requiredScope } from '../../platform/partner-security';
export { apiKeyListResponse, apiKeyResponse, apiKeyWithTokenResponse } from './api-keys.schema';
export { accountOf, partnerIdOf, presentedToken, requireApiKey } from './api-key-auth';
export type { PartnerAccount } from './api-key-auth';
export { apiKeyCapsOf, createMobilityApiKeys, MOBILITY_SCOPES } from './api-keys';
export { createKeySchema } from './api-keys.schema';
export { apiKeyHandlers } from './api-keys.handlers';

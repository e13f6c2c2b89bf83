/** The api-keys feature's face: what other features use of it. */
export { apiKeyAdminRoutes, requireApiKey } from './api-keys.routes';

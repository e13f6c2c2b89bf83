/** The api-keys feature's face: what other features use of it. */
export { requireApiKey } from './api-keys';
export { apiKeysHandlers } from './api-keys.handlers';

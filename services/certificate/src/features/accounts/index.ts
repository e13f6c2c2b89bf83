/** The accounts feature's face: what other features use of it. */
export { memberAdminRoutes } from './accounts.routes';

/** The payments feature's face: what other features use of it. */
export { subscriptionAdminRoutes } from './payments.routes';

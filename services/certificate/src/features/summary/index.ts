/** The summary feature's face: what other features use of it. */
export { summaryAdminRoutes } from './summary.routes';

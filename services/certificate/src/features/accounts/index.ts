/** The accounts feature's face: what other features use of it. */
export { accountsHandlers } from './accounts.handlers';

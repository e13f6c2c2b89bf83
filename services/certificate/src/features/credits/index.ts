/** The credits feature's face: what other features use of it. */
export { grantCreditsOnce, spendCredits } from './credit-ledger';

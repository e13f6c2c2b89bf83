/** The plans feature's face: what other features use of it. */
export { CREDIT_PACKS, CREDIT_PACK_IDS, findCreditPack } from './credit-packs';
export { FREE_PLAN, PLANS, findPlan } from './plans';

/** The plan catalogue: prices in minor units of the currency. */
export interface Plan {
  id: string;
  name: string;
  price: { amount: number; currency: string };
  credits: number;
}

/** Every price of the catalogue (plans and credit packs) is in this currency. */
export const CATALOGUE_CURRENCY = 'NGN';

export const PLANS: readonly Plan[] = [
  { id: 'free', name: 'Free', price: { amount: 0, currency: CATALOGUE_CURRENCY }, credits: 10 },
  { id: 'starter', name: 'Starter', price: { amount: 500000, currency: CATALOGUE_CURRENCY }, credits: 100 },
  { id: 'pro', name: 'Pro', price: { amount: 2000000, currency: CATALOGUE_CURRENCY }, credits: 500 },
  { id: 'business', name: 'Business', price: { amount: 7500000, currency: CATALOGUE_CURRENCY }, credits: 2500 },
];

export const FREE_PLAN = PLANS[0]!;

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

import { CATALOGUE_CURRENCY } from './plans';

/**
 * Credit packs: credits bought on top of any plan, without changing it. Priced in the plan catalogue's currency, each
 * credit dearer than on the plan of about the same size (a plan is the better buy for steady use; a pack tops up a
 * busy month).
 */
export interface CreditPack {
  id: string;
  name: string;
  credits: number;
  price: { amount: number; currency: string };
}

export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'credits_100', name: '100 credits', credits: 100, price: { amount: 600000, currency: CATALOGUE_CURRENCY } },
  { id: 'credits_500', name: '500 credits', credits: 500, price: { amount: 2500000, currency: CATALOGUE_CURRENCY } },
  { id: 'credits_2000', name: '2,000 credits', credits: 2000, price: { amount: 8000000, currency: CATALOGUE_CURRENCY } },
];

export const CREDIT_PACK_IDS = CREDIT_PACKS.map((pack) => pack.id) as [string, ...string[]];

export function findCreditPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.id === id);
}

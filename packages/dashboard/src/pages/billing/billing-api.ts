import { request } from '../../api/http';
import type { Credits, LedgerEntry, Page, Payment, Plan } from '../../api/types';

export const listPlans = () => request<Page<Plan>>('certificate', '/plans');
export const startCheckout = (plan: string, gateway: Payment['gateway']) =>
  request<Payment>('certificate', '/subscriptions/checkout', { method: 'POST', body: { plan, gateway } });
/** Admin twins of the partner API's GET /api/v1/credits, plus the ledger. */
export const getCredits = () => request<Credits>('certificate', '/credits');
export const listLedger = () => request<Page<LedgerEntry>>('certificate', '/credits/ledger', { query: { limit: 50 } });

/** The checkout in progress survives the trip to the payment page and back (this tab only). */
const PENDING_KEY = 'dashboard.pending-checkout';
export interface PendingCheckout {
  reference: string;
  plan: string;
  previousPlan: string | null;
}
export function rememberCheckout(pending: PendingCheckout | null): void {
  if (pending) sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  else sessionStorage.removeItem(PENDING_KEY);
}
export function pendingCheckout(): PendingCheckout | null {
  try {
    return JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as PendingCheckout | null;
  } catch {
    return null;
  }
}

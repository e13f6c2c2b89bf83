import { request, send } from '../../api/http';
import type { BillingPayment, CheckoutStarted, CreditPack, Credits, LedgerEntry, Page, Payment, Plan } from '../../api/types';

export const listPlans = () => request<Page<Plan>>('certificate', '/plans');
/** Credit packs: credits bought without a plan change. */
export const listCreditPacks = () => request<Page<CreditPack>>('certificate', '/credit-packs');
/** The pending payment and `checkout_url`, the gateway's hosted payment page to send the user to. */
export const startCheckout = (plan: string, gateway: Payment['gateway']) =>
  request<CheckoutStarted>('certificate', '/subscriptions/checkout', { method: 'POST', body: { plan, gateway } });
/** A credit top-up (owners): the same hosted checkout; the payment adds the pack's credits and leaves the plan. */
export const startTopUp = (pack: string, gateway: Payment['gateway']) =>
  request<CheckoutStarted>('certificate', '/credits/top-ups', { method: 'POST', body: { pack, gateway } });
export interface PaymentGatewayOption {
  id: Payment['gateway'];
  name: string;
  available: boolean;
}
/** Billing history: each payment with its plan period and renewal date. */
export const listPayments = () => request<Page<BillingPayment>>('certificate', '/payments');
/** Fetches a paid payment's PDF receipt with the session's token (a plain link would carry none). */
export async function downloadReceipt(reference: string): Promise<Blob> {
  return (await send('certificate', `/payments/${encodeURIComponent(reference)}/receipt`)).blob();
}
/** Both gateways by their configured display names. */
export const listPaymentGateways = () => request<{ data: PaymentGatewayOption[] }>('certificate', '/payment-gateways');
/** Admin twins of the partner API's GET /api/v1/credits, plus the ledger. */
export const getCredits = () => request<Credits>('certificate', '/credits');
export const listLedger = () => request<Page<LedgerEntry>>('certificate', '/credits/ledger', { query: { limit: 50 } });

/** The checkout in progress survives the trip to the payment page and back (this tab only). */
const PENDING_KEY = 'dashboard.pending-checkout';
export interface PendingCheckout {
  reference: string;
  kind: Payment['kind'];
  /** What is being bought, for people: "plan Growth", "500 credits". */
  purchase: string;
}
export function rememberCheckout(pending: PendingCheckout | null): void {
  if (pending) sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  else sessionStorage.removeItem(PENDING_KEY);
}
export function pendingCheckout(): PendingCheckout | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as Partial<PendingCheckout> | null;
    return stored?.reference && stored.kind && stored.purchase ? (stored as PendingCheckout) : null;
  } catch {
    return null;
  }
}

/** Leaves the dashboard for the gateway's hosted payment page (a seam for component tests). */
export const paymentPage = { open: (url: string) => window.location.assign(url) };

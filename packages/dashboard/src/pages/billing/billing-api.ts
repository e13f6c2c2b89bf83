import { request, send } from '../../api/http';
import type { BillingPayment, CertificateSchemas, CheckoutStarted, CreditPack, Credits, LedgerEntry, Page, Payment, Plan } from '../../api/types';

export type Invoice = CertificateSchemas['Invoice'];
export type BillingDetails = CertificateSchemas['BillingDetails'];
export type BillingDetailsInput = CertificateSchemas['BillingDetailsInput'];

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
/** The organization's invoices, newest first (one per paid payment). */
export const listInvoices = () => request<Page<Invoice>>('certificate', '/invoices', { query: { limit: 50 } });
/** Fetches an invoice's PDF with the session's token (a plain link would carry none). */
export async function downloadInvoice(id: string): Promise<Blob> {
  return (await send('certificate', `/invoices/${encodeURIComponent(id)}/pdf`)).blob();
}
/** The organization's side of its invoices: legal name, address, tax id, email (all null while unset). */
export const getBillingDetails = () => request<BillingDetails>('certificate', '/billing-details');
export const saveBillingDetails = (details: BillingDetailsInput) => request<BillingDetails>('certificate', '/billing-details', { method: 'PUT', body: details });
/** Saves a downloaded file under `filename` (the browser's download). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
  /** Empty for a checkout known only from the payment page's return address (billing history says what it is). */
  kind: Payment['kind'] | '';
  /** What is being bought, for people: "plan Growth", "500 credits" (empty: read from billing history). */
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

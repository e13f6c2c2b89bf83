/** Money on invoices: amounts in minor units, VAT split out of a price that includes it, and amounts as people read them. */

export interface VatSplit {
  /** The amount before VAT. */
  net: number;
  vat: number;
  /** What was paid: net + vat. */
  gross: number;
}

/**
 * Catalogue prices are what the payer pays, VAT included: the invoice splits `gross` into net and VAT at `ratePercent`
 * (7.5 → 7.5 %), in whole minor units, so net + VAT is exactly what was charged. No rate: no VAT line.
 */
export function splitVat(gross: number, ratePercent: number | null | undefined): VatSplit {
  if (!ratePercent) return { net: gross, vat: 0, gross };
  const basisPoints = Math.round(ratePercent * 100);
  const net = Math.round((gross * 10_000) / (10_000 + basisPoints));
  return { net, vat: gross - net, gross };
}

const GROUPED = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });

/** `NGN 25,000.00`: the currency code, then the amount with thousands separators and two decimals. */
export function formatAmount(minor: number, currency: string): string {
  return `${currency} ${GROUPED.format(minor / 100)}`;
}

/** `7.5 %`, `16 %`. */
export function formatRate(ratePercent: number): string {
  return `${Number(ratePercent.toFixed(2))} %`;
}

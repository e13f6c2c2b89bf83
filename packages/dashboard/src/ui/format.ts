/** Dates and money as the dashboard shows them. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** Amounts travel in minor units. */
export function formatMoney(money: { amount: number; currency: string } | null | undefined): string {
  if (!money) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(money.amount / 100);
  } catch {
    return `${(money.amount / 100).toFixed(2)} ${money.currency}`;
  }
}

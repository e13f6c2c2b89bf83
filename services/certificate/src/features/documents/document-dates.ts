import type { DateFormat } from '../templates';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A `YYYY-MM-DD` date as people write it: `long` 26 November 2026, `us` November 26, 2026, `us_numeric` 11/26/2026,
 * `iso` unchanged. Written
 * out by hand (no locale data), so every render says the same whatever the machine's ICU; anything else is left as is.
 */
export function humanDate(date: string, format: DateFormat = 'long'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match || format === 'iso') return date;
  const [, year, month, day] = match;
  const monthName = MONTHS[Number(month) - 1];
  if (!monthName) return date;
  if (format === 'us_numeric') return `${month}/${day}/${year}`;
  return format === 'us' ? `${monthName} ${Number(day)}, ${year}` : `${Number(day)} ${monthName} ${year}`;
}

/**
 * The issuer a certificate names wherever it is shown — its document, its public page, its verifiable credential: the
 * template's issuer name when it has one ("Faculty of Engineering"), else the organization's name.
 */
export function issuerNameOf(templateIssuerName: string | null | undefined, organizationName: string): string {
  return templateIssuerName?.trim() ? templateIssuerName : organizationName;
}

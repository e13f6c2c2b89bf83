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

/** How far back (or ahead) a time is, in the largest unit that fits: seconds up to a minute, then minutes, hours, days… */
const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** The viewer's time zone (its IANA name, e.g. `Europe/Berlin`), or the one given. */
export function viewerTimeZone(timeZone?: string): string {
  return timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A time shown both ways: relative to now ("5 minutes ago"), and absolute in the viewer's zone, the zone named. */
export interface FormattedTime {
  /** The instant as given (an ISO string), for `<time dateTime>`. */
  iso: string;
  /** "5 minutes ago", "yesterday", "in 2 hours", "now". */
  relative: string;
  /** "29 Nov 2026, 17:05:12 GMT+01:00 (Europe/Berlin)": for a title attribute, a tooltip, an export. */
  absolute: string;
}

/**
 * The one formatter of times the dashboard shows: relative and absolute, in the viewer's time zone (or `timeZone`).
 * `null` for no time; a value that is not a time comes back as its text.
 */
export function formatDateTime(value: string | null | undefined, { now = new Date(), timeZone, locale }: { now?: Date; timeZone?: string; locale?: string } = {}): FormattedTime | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return { iso: value, relative: value, absolute: value };
  const zone = viewerTimeZone(timeZone);
  const absolute = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: zone,
    timeZoneName: 'longOffset',
  }).format(date);
  const seconds = (date.getTime() - now.getTime()) / 1000;
  const [unit, size] = RELATIVE_UNITS.find(([, unitSeconds]) => Math.abs(seconds) >= unitSeconds) ?? ['second', 1];
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
  return { iso: value, relative, absolute: `${absolute} (${zone})` };
}

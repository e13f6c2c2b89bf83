/**
 * Each main list's column values, in the order of its page's columns: what DataTable sorts by, filters on and exports
 * to CSV (`undefined`: a column of actions, neither sorted nor exported). Kept here, beside the table, so the pages only
 * pass them on.
 */
import type { Member } from '../api/accounts';
import type { ApiKey, Certificate, Delivery, MobilitySchemas, Ride, WebhookEndpoint } from '../api/types';
import type { ColumnValue } from './DataTable';

type Values<Row> = readonly (ColumnValue<Row> | undefined)[];

/** Number, Recipient, Program, Issued, Status, Actions. */
export const CERTIFICATE_VALUES: Values<Certificate> = [
  (c) => c.certificate_number,
  (c) => c.recipient_name,
  (c) => c.program_title,
  (c) => c.issue_date,
  (c) => c.status,
  undefined,
];

/** Name, Status, Scopes, Last used, Created, Actions. */
export const API_KEY_VALUES: Values<ApiKey> = [
  (k) => k.name,
  (k) => `${k.status}${k.livemode === false || k.mode === 'test' ? ' (test)' : ''}`,
  (k) => (k.scopes?.length ? k.scopes.join(' ') : null),
  (k) => k.last_used_at ?? null,
  (k) => k.created_at,
  undefined,
];

const amountOf = (trip: Ride | Delivery) => {
  const money = ('fare' in trip ? trip.fare : (trip as Delivery).fee) as { amount: number; currency: string } | null | undefined;
  return money ? `${(money.amount / 100).toFixed(2)} ${money.currency}` : null;
};

/** ID, Status, Fare / Fee, Created. */
export const TRIP_VALUES: Values<Ride | Delivery> = [(t) => t.id, (t) => t.status, amountOf, (t) => t.created_at];

/** Member, Role, Joined, Actions. */
export const MEMBER_VALUES: Values<Member> = [(m) => `${m.name} <${m.email}>`, (m) => m.role, (m) => m.created_at, undefined];

/** URL, Status, Events, Created. */
export const WEBHOOK_ENDPOINT_VALUES: Values<WebhookEndpoint> = [(e) => e.url, (e) => e.status, (e) => e.events.join(' '), (e) => e.created_at];

type Program = MobilitySchemas['EventPassProgram'];
type EventPass = MobilitySchemas['EventPass'];

/** Name, Status, Valid, Budget left, Passes / rides, Actions. */
export const PROGRAM_VALUES: Values<Program> = [
  (p) => p.name,
  (p) => p.status,
  (p) => `${p.valid_from} – ${p.valid_until}`,
  (p) => p.usage.budget_left,
  (p) => p.usage.passes_issued,
  undefined,
];

/** Code, Attendee, Status, Rides used / left, Actions. */
export const PASS_VALUES: Values<EventPass> = [
  (p) => p.code,
  (p) => [p.attendee.reference, p.attendee.name].filter(Boolean).join(' · ') || null,
  (p) => p.status,
  (p) => `${p.rides_used} / ${p.rides_left}`,
  undefined,
];

/** An audit entry as both services' logs show it. */
interface AuditRow {
  actor_id: string;
  actor_name?: string | null;
  actor_email?: string | null;
  action: string;
  target_id: string | null;
  mode?: 'live' | 'test' | null;
  ip_address: string;
  created_at: string;
}

/** When, Who, What, Mode, From. */
export const AUDIT_VALUES: Values<AuditRow> = [
  (e) => e.created_at,
  (e) => [e.actor_name, e.actor_email ?? e.actor_id].filter(Boolean).join(' '),
  (e) => [e.action, e.target_id].filter(Boolean).join(' '),
  (e) => e.mode ?? '',
  (e) => e.ip_address,
];

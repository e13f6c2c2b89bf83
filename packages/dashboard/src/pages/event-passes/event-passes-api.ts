/** Event pass programs and their passes through the mobility admin API (live data only). */
import { request } from '../../api/http';
import type { MobilitySchemas, Page } from '../../api/types';
import { parseCsv } from '../certificates/csv';

export type Program = MobilitySchemas['EventPassProgram'];
export type EventPass = MobilitySchemas['EventPass'];
export type NewProgram = MobilitySchemas['NewEventPassProgram'];
export type Attendee = { reference?: string; name?: string };

/** Which rides of the area a pass covers (`applies_to`), in words. */
export const RIDES_COVERED: Record<Program['applies_to'], string> = {
  both: 'pick-up or drop-off',
  to_venue: 'drop-off only',
  from_venue: 'pick-up only',
};

const at = (id: string, rest = ''): `/event-pass-programs/${string}` => `/event-pass-programs/${encodeURIComponent(id)}${rest}`;

export const listPrograms = () => request<Page<Program>>('mobility', '/event-pass-programs', { query: { limit: 100 } });
export const getProgram = (id: string) => request<Program>('mobility', at(id));
export const createProgram = (body: NewProgram) => request<Program>('mobility', '/event-pass-programs', { method: 'POST', body });
export const closeProgram = (id: string) => request<Program>('mobility', at(id, '/close'), { method: 'POST' });
export const listPasses = (id: string) => request<Page<EventPass>>('mobility', at(id, '/passes'), { query: { limit: 1000 } });
export const issuePasses = (id: string, body: { count: number } | { attendees: Attendee[] }) =>
  request<{ data: EventPass[] }>('mobility', at(id, '/passes'), { method: 'POST', body });
export const revokePass = (id: string, passId: string) => request<EventPass>('mobility', at(id, `/passes/${encodeURIComponent(passId)}/revoke`), { method: 'POST' });

/** A CSV of attendees: a header with `reference` and/or `name`, one attendee a row. */
export function attendeesFromCsv(text: string): Attendee[] {
  const [header = [], ...rows] = parseCsv(text);
  const columns = header.map((name) => name.trim().toLowerCase());
  const reference = columns.indexOf('reference');
  const name = columns.indexOf('name');
  if (reference < 0 && name < 0) throw new Error('The CSV needs a header row with a "reference" or a "name" column.');
  return rows.map((row) => {
    const attendee: Attendee = {};
    if (reference >= 0 && row[reference]?.trim()) attendee.reference = row[reference].trim();
    if (name >= 0 && row[name]?.trim()) attendee.name = row[name].trim();
    return attendee;
  });
}

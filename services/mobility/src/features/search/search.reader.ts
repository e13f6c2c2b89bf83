import type { Knex } from '@platform/service-kit/db';
import type { MOBILITY_SEARCH_KINDS } from './search.schema';

export interface MobilitySearchResult {
  kind: (typeof MOBILITY_SEARCH_KINDS)[number];
  id: string;
  label: string;
  detail: string | null;
  program_id?: string | null;
}

export type MobilitySearchReader = ReturnType<typeof createMobilitySearchReader>;

/** `a_b%` → `a\_b\%`: the text matched literally by `like`. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The dashboard's search, within one organization and mode: rides, deliveries and webhook endpoints by id (exact or
 * prefix), endpoints by the start of their URL, event passes (live only) by code (any case, exact or prefix). Each kind
 * reads at most `limit` rows through its partner's index; exact matches come first.
 */
export function createMobilitySearchReader(db: Knex) {
  return async (partnerId: string, { q, livemode, limit }: { q: string; livemode: boolean; limit: number }): Promise<MobilitySearchResult[]> => {
    const prefix = `${literal(q)}%`;
    const byId = (table: 'rides' | 'deliveries') =>
      db(table)
        .select('id', 'status')
        .where({ partner_id: partnerId, livemode })
        .where((w) => void w.where('id', q).orWhere('id', 'like', prefix))
        .orderByRaw('(id = ?) desc, created_at desc', [q])
        .limit(limit);
    const code = q.toUpperCase();
    const [rides, deliveries, passes, endpoints] = await Promise.all([
      byId('rides'),
      byId('deliveries'),
      livemode
        ? db('event_passes as p')
            .join('event_pass_programs as g', 'g.id', 'p.program_id')
            .select('p.id', 'p.code', 'p.status', 'p.program_id', 'p.attendee_name', 'p.attendee_reference', 'g.name as program_name')
            .where('p.partner_id', partnerId)
            .where((w) => void w.where('p.code', code).orWhere('p.code', 'like', `${literal(code)}%`).orWhere('p.id', q))
            .orderByRaw('(p.code = ?) desc, p.created_at desc', [code])
            .limit(limit)
        : Promise.resolve([]),
      db('webhook_endpoints')
        .select('id', 'url', 'status')
        .where({ partner_id: partnerId, livemode })
        .where((w) => void w.where('id', q).orWhere('id', 'like', prefix).orWhere('url', 'like', prefix))
        .orderByRaw('(id = ?) desc, created_at desc', [q])
        .limit(limit),
    ]);
    return [
      ...rides.map((r: { id: string; status: string }) => ({ kind: 'ride' as const, id: r.id, label: r.id, detail: `Ride, ${r.status.replace(/_/g, ' ')}` })),
      ...deliveries.map((d: { id: string; status: string }) => ({ kind: 'delivery' as const, id: d.id, label: d.id, detail: `Delivery, ${d.status.replace(/_/g, ' ')}` })),
      ...(passes as { id: string; code: string; status: string; program_id: string; attendee_name: string | null; attendee_reference: string | null; program_name: string }[]).map((p) => ({
        kind: 'event_pass' as const,
        id: p.id,
        label: p.code,
        detail: [`Event pass of ${p.program_name}`, p.status, p.attendee_reference, p.attendee_name].filter(Boolean).join(', '),
        program_id: p.program_id,
      })),
      ...endpoints.map((e: { id: string; url: string; status: string }) => ({ kind: 'webhook_endpoint' as const, id: e.id, label: e.url, detail: `Webhook endpoint ${e.id}, ${e.status}` })),
    ];
  };
}

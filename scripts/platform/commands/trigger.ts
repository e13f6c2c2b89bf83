/**
 * `pnpm platform trigger <event type>` (like `stripe trigger`): makes a test-mode ride or delivery through the public API
 * with the partner's test key (`mk_test_…`) and drives it with the sandbox to the status whose event was asked for, so
 * the platform emits that event (and those of the statuses on the way) to the key's test endpoints, e.g. a running
 * `pnpm platform webhooks listen --key <the same key>`. The event types come from the published API description (the
 * client's WEBHOOK_EVENT_TYPES): every ride and delivery status event; live position events need a moving driver and are
 * not triggered.
 */
import { WEBHOOK_EVENT_TYPES } from '@platform/client/schema';
import { CommandError, UsageError, type CommandSpec } from '../cli';
import { API_URL_DETAILS, callApi, describeRefusal, publicApiFrom, type PublicApi } from '../public-api';

type JobKind = 'ride' | 'delivery';

/** `ride.completed` → a ride moved to `completed`: the status events of rides and deliveries (not their position events). */
const TRIGGERS = WEBHOOK_EVENT_TYPES.flatMap((type) => {
  const [kind, status] = type.split('.') as [string, string];
  if ((kind !== 'ride' && kind !== 'delivery') || status.endsWith('location_updated')) return [];
  return [{ type, kind: kind as JobKind, status }];
});

export const SUPPORTED_TRIGGERS: readonly string[] = TRIGGERS.map((trigger) => trigger.type);

const PLACES = { pickup: { lat: 6.4541, lng: 3.3947, address: '12 Marina Road, Lagos Island' }, dropoff: { lat: 6.4281, lng: 3.4219 } };

/** What each kind of test object is made from and where its routes are. */
const JOBS: Record<JobKind, { path: string; body: object }> = {
  ride: { path: 'rides', body: { ...PLACES, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348012345678' } } },
  delivery: {
    path: 'deliveries',
    body: { ...PLACES, sender: { name: 'Ada Obi', phone: '+2348012345678' }, recipient: { name: 'Tunde Bello', phone: '+2348098765432' }, weight_tier: 'small', notes: 'pnpm platform trigger' },
  },
};

interface Job {
  id: string;
  status: string;
}

interface CausedEvent {
  id: string;
  type: string;
}

export const trigger: CommandSpec = {
  name: 'trigger',
  summary: 'make a test ride or delivery that emits a webhook event (sandbox, test-mode key only)',
  synopsis: '<event type> --key <mk_test_…> [--url http://127.0.0.1:8080]',
  positionals: ['event type'],
  details: () => [
    `Event types: ${SUPPORTED_TRIGGERS.join(', ')}.`,
    'Creates a test ride or delivery (POST /api/v1/rides or /deliveries) and moves it with the sandbox',
    '(POST /api/v1/sandbox/…/advance, or …/cancel for *.cancelled) to the status of that event: the events of every',
    'status on the way are emitted too (ride.completed also emits ride.accepted, ride.arrived, ride.in_progress).',
    'The key must be a test-mode key (pnpm platform keys create --service mobility --org <id> --test); its test',
    'endpoints receive the events, e.g. `pnpm platform webhooks listen --key <the same key>` in another terminal.',
    ...API_URL_DETAILS,
  ],
  flags: { key: 'string', url: 'string' },
  async run({ flags, positionals, out }) {
    const type = positionals[0]!;
    const wanted = TRIGGERS.find((t) => t.type === type);
    if (!wanted) throw new UsageError(`cannot trigger ${JSON.stringify(type)}: pick one of ${SUPPORTED_TRIGGERS.join(', ')}`, { usage: false });
    const api = publicApiFrom(flags, 'a test-mode mobility key (mk_test_…)');
    if (!api.key.startsWith('mk_test_')) {
      throw new CommandError('refused: trigger makes test data only and takes a test-mode key (mk_test_…, from `pnpm platform keys create --service mobility --org <id> --test`), never a live one');
    }
    const { kind, status } = wanted;
    const job = await createJob(api, kind);
    const moved = await moveJob(api, kind, job.id, status);
    const events = await eventsAbout(api, job.id);
    const caused = events ?? [];
    out.result(
      { event_type: type, object: { type: kind, id: job.id, status: moved.status, livemode: false }, events: events ?? null },
      [
        `Created test ${kind} ${job.id} (POST /api/v1/${JOBS[kind].path}) and moved it to ${moved.status} (${moved.how}).`,
        ...(events === undefined
          ? [`Emitted ${type} (the key cannot list events: it lacks webhooks:manage).`]
          : [`Emitted ${caused.length} event${caused.length === 1 ? '' : 's'}:`, ...caused.map((event) => `  ${event.id}  ${event.type}`)]),
      ],
    );
  },
};

async function createJob(api: PublicApi, kind: JobKind): Promise<Job> {
  const answer = await callApi(api, 'POST', `/api/v1/${JOBS[kind].path}`, JOBS[kind].body);
  if (answer.status !== 201) throw new CommandError(`the platform refused to create a test ${kind}: ${describeRefusal(answer)}`);
  return answer.json as unknown as Job;
}

/** Cancels the job (`*.cancelled`) or has the sandbox walk it to `status`, every transition on the way with its event. */
async function moveJob(api: PublicApi, kind: JobKind, id: string, status: string): Promise<{ status: string; how: string }> {
  const how = status === 'cancelled' ? `/api/v1/${JOBS[kind].path}/${id}/cancel` : `/api/v1/sandbox/${JOBS[kind].path}/${id}/advance`;
  const answer = await callApi(api, 'POST', how, status === 'cancelled' ? {} : { to: status });
  if (answer.status !== 200) throw new CommandError(`the platform refused to move test ${kind} ${id} to ${status}: ${describeRefusal(answer)}`);
  return { status: String((answer.json as { status?: unknown }).status ?? status), how: `POST ${how}` };
}

/** The events about the job, oldest first (GET /api/v1/events needs webhooks:manage: undefined without it). */
async function eventsAbout(api: PublicApi, id: string): Promise<CausedEvent[] | undefined> {
  const answer = await callApi(api, 'GET', `/api/v1/events?object_id=${encodeURIComponent(id)}&limit=100`);
  if (answer.status === 403) return undefined;
  if (answer.status !== 200) throw new CommandError(`the platform did not list the events about ${id}: ${describeRefusal(answer)}`);
  const items = (answer.json as { data?: { id: string; type: string; data?: { sequence?: number } }[] }).data ?? [];
  // One walk's events share their transaction's created_at: the job's own sequence numbers order them.
  return items.sort((a, b) => (a.data?.sequence ?? 0) - (b.data?.sequence ?? 0)).map((item) => ({ id: item.id, type: item.type }));
}

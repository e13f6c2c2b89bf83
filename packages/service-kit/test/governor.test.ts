import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { z } from 'zod';
import { createJsonApp, errorHandler, route } from '../src';
import { describeRoutes } from '../src/describe-routes';
import { costHooks, createGovernor, GovernedResource, OverShareError, type ResourceLimits, type Tenant } from '../src/governor';
import { mountOperations, type Handlers } from '../src/mount-operations';

const limits: ResourceLimits = { what: 'previews', perProcess: 8, perAccount: { free: 2, paid: 6 }, paidWeight: 3 };
const free = (account: string, organization = `${account}_org`): Tenant => ({ account, organization, plan: 'free' });

function refusalOf(take: () => unknown): OverShareError['scope'] | null {
  try {
    take();
    return null;
  } catch (error) {
    if (error instanceof OverShareError) return error.scope;
    throw error;
  }
}

describe('GovernedResource: a shared resource counted per organization, per account (by plan) and per process', () => {
  it("counts an account's organizations together: a free account's three organizations share its 2 units", () => {
    const previews = new GovernedResource(limits);
    previews.acquire(free('acc_a', 'org_1'));
    previews.acquire(free('acc_a', 'org_2'));
    expect(refusalOf(() => previews.acquire(free('acc_a', 'org_3')))).toBe('account');
    expect(previews.heldByAccount('acc_a')).toBe(2);
  });

  it('gives a bystander its first unit however many free accounts filled the process, and refuses the flooders at their share', () => {
    const previews = new GovernedResource({ ...limits, perAccount: { free: 4, paid: 12 } });
    for (const account of ['a', 'b', 'c', 'd']) for (let unit = 0; unit < 2; unit++) previews.acquire(free(account, `${account}_${unit}`));
    expect(previews.inUse).toBe(8);
    // Full: each flooding account holds its share (8 / 4) and is refused though under its own cap of 4.
    expect(refusalOf(() => previews.acquire(free('a', 'a_2')))).toBe('process');
    // The bystander's share is 8 / 5 = 1.6: its first and second units are admitted, its third is not.
    expect(refusalOf(() => previews.acquire(free('bystander')))).toBeNull();
    expect(refusalOf(() => previews.acquire(free('bystander')))).toBeNull();
    expect(refusalOf(() => previews.acquire(free('bystander')))).toBe('process');
  });

  it('gives a paying account more units and a larger share of a contended total; a release gives the unit back once', () => {
    const previews = new GovernedResource(limits);
    const releases = ['a', 'b', 'c', 'd'].map((account) => previews.acquire(free(account)));
    for (const account of ['a', 'b', 'c', 'd']) previews.acquire(free(account));
    const paid: Tenant = { account: 'acc_paid', organization: 'org_paid', plan: 'paid' };
    // Full at 8: the paying account's share is 8 · 3 / (4 + 3) ≈ 3.4 units, a free account's would be 8 / 5 = 1.6.
    for (let unit = 0; unit < 4; unit++) expect(refusalOf(() => previews.acquire(paid))).toBeNull();
    expect(refusalOf(() => previews.acquire(paid))).toBe('process');
    releases[0]!();
    releases[0]!();
    expect(previews.heldByAccount('a')).toBe(1);
    expect(previews.inUse).toBe(11);
  });

  it('bounds how many units an account starts a minute: a burst of a quarter minute\'s, then one as the bucket refills, 429 rate_limited with the wait', () => {
    const previews = new GovernedResource({ ...limits, perAccountPerMinute: { free: 12, paid: 36 } });
    for (let unit = 0; unit < 3; unit++) previews.acquire(free('acc_a'))();
    let refused: unknown;
    try {
      previews.acquire(free('acc_a', 'acc_a_other_org'));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(OverShareError);
    expect((refused as OverShareError).toBody()).toMatchObject({ code: 'rate_limited' });
    // One token comes back every 60 / 12 = 5 s.
    expect((refused as OverShareError).headers['Retry-After']).toBe('5');
    expect(refusalOf(() => previews.acquire(free('acc_b')))).toBeNull();
    expect(refusalOf(() => previews.acquire({ account: 'acc_paid', organization: 'org_paid', plan: 'paid' }))).toBeNull();
  });

  it('caps one organization by its own count when a per-organization cap is given', () => {
    const previews = new GovernedResource({ ...limits, perOrganization: { free: 1, paid: 2 } });
    previews.acquire(free('acc_a', 'org_1'));
    expect(refusalOf(() => previews.acquire(free('acc_a', 'org_1')))).toBe('organization');
    expect(refusalOf(() => previews.acquire(free('acc_a', 'org_2')))).toBeNull();
  });
});

describe('costHooks on the route table: an operation declaring a cost holds a unit while its request is in flight', () => {
  const table = [
    route({ operationId: 'preview', method: 'post', path: '/previews', security: [], body: z.object({ n: z.int() }), cost: 'render', responses: { 200: z.object({ n: z.int() }) } }),
  ] as const;

  async function serve(gates: (() => void)[]) {
    const handlers: Handlers<typeof table> = {
      preview: ({ body }) => new Promise((resolve) => gates.push(() => resolve({ status: 200, body: { n: body.n } }))),
    };
    const app = createJsonApp();
    const governor = createGovernor({ render: { ...limits, perProcess: 2, perAccount: { free: 1, paid: 3 } } });
    mountOperations(app, table, handlers, { schemes: {}, costs: costHooks(governor, (req) => free(String(req.headers['x-account']))) });
    app.use(errorHandler(pino({ level: 'silent' })));
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/previews`, governor };
  }

  const post = (url: string, account: string, n: number) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-account': account }, body: JSON.stringify({ n }) });

  it('answers 429 too_many_in_flight with Retry-After past the account cap, lets another account in, and frees the unit with the answer', async () => {
    const gates: (() => void)[] = [];
    const { server, url, governor } = await serve(gates);
    try {
      const first = post(url, 'a', 1);
      await waitFor(() => gates.length === 1);
      const refused = await post(url, 'a', 2);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { code: string }).code).toBe('too_many_in_flight');
      const other = post(url, 'b', 3);
      await waitFor(() => gates.length === 2);
      expect(governor.render!.inUse).toBe(2);
      gates.forEach((open) => open());
      expect(((await (await first).json()) as { n: number }).n).toBe(1);
      expect((await other).status).toBe(200);
      await waitFor(() => governor.render!.inUse === 0);
      gates.length = 0;
      const again = post(url, 'a', 4);
      await waitFor(() => gates.length === 1);
      gates[0]!();
      expect((await again).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('declares the 429 in the description of every operation with a cost, and refuses to mount a cost the service does not govern', () => {
    const description = describeRoutes(table, { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }) as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(description.paths['/previews']!.post!.responses)).toEqual(expect.arrayContaining(['200', '429']));
    expect(() => mountOperations(createJsonApp(), table, { preview: () => ({ status: 200, body: { n: 1 } }) }, { schemes: {} })).toThrow(/declares cost render, and the service gives no governor/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('condition not met in 2 s');
}

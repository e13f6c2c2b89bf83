import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody } from './factories/deliveries';
import { randomCentre } from './factories/fleet';
import { partnerApi } from './factories/rides';

/**
 * The page's state as the server draws it: the sandbox courier named as such (no fake vehicle), and a final delivery
 * drawn as ended (solid line, the time it ended, no courier legend, no script, no "refreshes" promise).
 */
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

async function sandboxDelivery() {
  const api = partnerApi(ctx, (await createPartnerKey(ctx, { mode: 'test' })).token);
  const created = (await api.post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201)).body as { id: string; tracking_url: string };
  const token = created.tracking_url.split('/track/')[1]!;
  return {
    cancel: () => api.post(`/api/v1/deliveries/${created.id}/cancel`).expect(200),
    advance: (to: string) => api.post(`/api/v1/sandbox/deliveries/${created.id}/advance`, { to }).expect(200),
    page: async () => (await request(ctx.app).get(`/track/${token}`).expect(200)).text,
    status: async () => (await request(ctx.app).get(`/track/${token}/status`).expect(200)).body as { timeline: { status: string; at: string }[] },
  };
}

const textOf = (html: string, id: string) => html.match(new RegExp(`id="${id}"[^>]*>([^<]*)<`))?.[1];
const line = (html: string, id: string) => {
  const tag = html.match(new RegExp(`<line id="${id}"[^>]*>`))![0];
  const n = (attr: string) => Number(tag.match(new RegExp(` ${attr}="([^"]+)"`))![1]);
  return { x1: n('x1'), y1: n('y1'), x2: n('x2'), y2: n('y2') };
};
const dot = (html: string, id: string) => {
  const tag = html.match(new RegExp(`<circle id="${id}"[^>]*>`))![0];
  return { x: Number(tag.match(/ cx="([^"]+)"/)![1]), y: Number(tag.match(/ cy="([^"]+)"/)![1]) };
};
const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;

describe('the tracking page of a sandbox delivery', () => {
  it('names the sandbox courier "Sandbox courier", never its placeholder vehicle ("none")', async () => {
    const delivery = await sandboxDelivery();
    await delivery.advance('courier_assigned');
    const html = await delivery.page();
    expect(textOf(html, 'courier')).toBe('Sandbox courier');
    expect(html).not.toMatch(/Sandbox · none|none Sandbox/);
    expect(textOf(html, 'legend')).toContain('Coloured dot: your courier');
    expect(textOf(html, 'refresh-note')).toBe('This page refreshes by itself until the delivery is complete.');
    expect(textOf(html, 'ended')).toBe('');
    expect(html).toContain('<script src="/track/assets/tracking.js" defer></script>');
  });
});

describe('the tracking page of a final delivery', () => {
  it('draws a delivered parcel as completed: the whole line solid, the time it was delivered, no courier legend, no refreshing', async () => {
    const delivery = await sandboxDelivery();
    await delivery.advance('delivered');
    const html = await delivery.page();
    const delivered = (await delivery.status()).timeline.at(-1)!;
    expect(delivered.status).toBe('delivered');
    expect(html).toContain('data-final="true"');
    expect(textOf(html, 'status')).toBe('Your parcel has been delivered.');
    expect(textOf(html, 'ended')).toBe(`Delivered at ${hhmm(delivered.at)}`);
    // The solid line runs from the pick-up to the drop-off; the dotted rest has no length left.
    const dropoff = dot(html, 'dropoff-dot');
    const pickup = dot(html, 'pickup-dot');
    expect(line(html, 'route-done')).toEqual({ x1: pickup.x, y1: pickup.y, x2: dropoff.x, y2: dropoff.y });
    const rest = line(html, 'route-rest');
    expect([rest.x1, rest.y1]).toEqual([rest.x2, rest.y2]);
    expect(html).toContain('aria-label="Route from the pick-up to the drop-off; the parcel was delivered"');
    expect(textOf(html, 'legend')).toBe('Hollow dot: the pick-up. Dark dot: the drop-off area. The line is straight, not the road.');
    expect(textOf(html, 'refresh-note')).toBe('This delivery has ended; this page no longer refreshes.');
    expect(html).not.toContain('refreshes by itself');
    expect(html).not.toContain('<script');
  });

  it('draws a failed delivery as ended (solid grey line style, the time it ended) and a cancelled one likewise', async () => {
    const failed = await sandboxDelivery();
    await failed.advance('failed');
    const failedHtml = await failed.page();
    expect(textOf(failedHtml, 'ended')).toBe(`Ended at ${hhmm((await failed.status()).timeline.at(-1)!.at)}`);
    expect(failedHtml).toContain('aria-label="Route from the pick-up to the drop-off; the delivery failed"');
    expect(failedHtml).toContain('#tracking[data-final=true] .route-rest{stroke-dasharray:none');
    expect(failedHtml).toContain('data-final="true"');
    expect(textOf(failedHtml, 'refresh-note')).toBe('This delivery has ended; this page no longer refreshes.');
    expect(failedHtml).not.toContain('<script');

    const cancelled = await sandboxDelivery();
    await cancelled.cancel();
    const cancelledHtml = await cancelled.page();
    expect(textOf(cancelledHtml, 'ended')).toMatch(/^Cancelled at \d\d:\d\d UTC$/);
    expect(textOf(cancelledHtml, 'courier')).toBe('The delivery has ended; the courier&#39;s details are no longer shown.');
  });

  it('keeps the script it serves in step: it switches the page to the ended state by itself', async () => {
    const script = (await request(ctx.app).get('/track/assets/tracking.js').expect(200)).text;
    expect(script).toContain("main.setAttribute('data-final', String(t.final))");
    expect(script).toContain('This delivery has ended; this page no longer refreshes.');
    expect(script).toContain('"Sandbox courier"');
  });
});

import request from 'supertest';
import type { TestContext } from '../helpers/test-context';
import { adminToken, driverToken, newAdmin, suffix, type AdminIdentity } from './auth';

export interface Point {
  lat: number;
  lng: number;
}

/** A random spot on the globe, so test files running in parallel never share drivers within the dispatch radius. */
export function randomCentre(): Point {
  return { lat: Math.round((Math.random() * 120 - 60) * 1e5) / 1e5, lng: Math.round((Math.random() * 340 - 170) * 1e5) / 1e5 };
}

/** The point `north` and `east` metres away from `from`. */
export function offset(from: Point, north: number, east: number): Point {
  const lat = from.lat + north / 111_320;
  const lng = from.lng + east / (111_320 * Math.cos((from.lat * Math.PI) / 180));
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

/**
 * Registers a driver through the admin API. By default a platform operator registers it, so it serves every partner's
 * jobs; pass an organization's operator for a driver that serves only that organization.
 */
export async function registerDriver(ctx: TestContext, overrides: Record<string, unknown> = {}, operator: AdminIdentity = newAdmin({ role: 'platform_operator' })) {
  const s = suffix();
  const res = await request(ctx.app)
    .post('/admin/v1/drivers')
    .set('Authorization', `Bearer ${adminToken(ctx, operator)}`)
    .send({
      name: `Driver ${s}`,
      phone: '+234 801 234 5678',
      kind: 'driver',
      tier: 'economy',
      vehicle: { make: 'Toyota', model: 'Corolla', plate: `LAG-${s.slice(0, 5)}`, color: 'silver' },
      ...overrides,
    })
    .expect(201);
  return res.body as { id: string; name: string; tier: string; serves_all_partners: boolean; status: string };
}

/** A driver app session: the driver's own JWT against /driver/v1. */
export function driverApp(ctx: TestContext, driverId: string) {
  const auth = `Bearer ${driverToken(ctx, driverId)}`;
  return {
    post: (path: string, body?: object) => {
      const req = request(ctx.app).post(`/driver/v1${path}`).set('Authorization', auth);
      return body ? req.send(body) : req;
    },
    get: (path: string) => request(ctx.app).get(`/driver/v1${path}`).set('Authorization', auth),
    async goOnline(at: Point) {
      await this.post('/location', { ...at, heading: 90, speed_kph: 0 }).expect(200);
      await this.post('/availability', { available: true }).expect(200);
    },
    async offers() {
      return (await this.get('/offers').expect(200)).body.data as { id: string; kind: string; ride_id: string; delivery_id?: string; expires_at: string }[];
    },
  };
}

/** A registered driver, online at `at`. */
export async function onlineDriver(ctx: TestContext, at: Point, overrides: Record<string, unknown> = {}, operator?: AdminIdentity) {
  const driver = await registerDriver(ctx, overrides, operator);
  const app = driverApp(ctx, driver.id);
  await app.goOnline(at);
  return { ...driver, app };
}

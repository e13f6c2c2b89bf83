import request from 'supertest';
import type { TestContext } from '../helpers/test-context';
import { offset, type Point } from './fleet';

export function rideBody(pickup: Point, overrides: Record<string, unknown> = {}) {
  return {
    pickup: { ...pickup, address: '1 Test Street' },
    dropoff: { ...offset(pickup, 3000, 2000), address: '99 Far Road' },
    tier: 'economy',
    passenger: { name: 'Ada Obi', phone: '+234 802 000 0000' },
    ...overrides,
  };
}

/** A partner's view of the public API with one key. */
export function partnerApi(ctx: TestContext, token: string) {
  const auth = `Bearer ${token}`;
  return {
    post: (path: string, body?: object) => {
      const req = request(ctx.app).post(path).set('Authorization', auth);
      return body ? req.send(body) : req;
    },
    get: (path: string) => request(ctx.app).get(path).set('Authorization', auth),
  };
}

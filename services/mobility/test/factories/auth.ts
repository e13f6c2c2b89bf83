import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { MOBILITY_SCOPES } from '@platform/api-keys';
import { signAdminToken, signDriverToken, type AdminClaims } from '@platform/service-kit/admin-auth';
import type { TestContext } from '../helpers/test-context';

export function suffix(): string {
  return randomBytes(5).toString('hex');
}

export interface AdminIdentity {
  sub: string;
  org: string;
  org_name?: string;
  role: AdminClaims['role'];
}

export function newAdmin(overrides: Partial<AdminIdentity> = {}): AdminIdentity {
  const s = suffix();
  return { sub: `user_${s}`, org: `org_${s}`, org_name: `Partner ${s}`, role: 'owner', ...overrides };
}

export function adminToken(ctx: TestContext, identity: AdminIdentity): string {
  return signAdminToken({ ...identity }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
}

export function driverToken(ctx: TestContext, driverId: string): string {
  return signDriverToken(driverId, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER });
}

/** A partner (new organization unless given) with a key holding `scopes` (every mobility scope by default). */
export async function createPartnerKey(ctx: TestContext, options: { scopes?: string[]; owner?: AdminIdentity; mode?: 'live' | 'test' } = {}) {
  const owner = options.owner ?? newAdmin();
  const res = await request(ctx.app)
    .post('/admin/v1/api-keys')
    .set('Authorization', `Bearer ${adminToken(ctx, owner)}`)
    .send({ name: `key ${suffix()}`, scopes: options.scopes ?? MOBILITY_SCOPES, ...(options.mode ? { mode: options.mode } : {}) })
    .expect(201);
  return { owner, token: res.body.token as string, keyId: res.body.id as string };
}

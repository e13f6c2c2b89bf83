import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { signAdminToken, type AdminClaims } from '@platform/service-kit/admin-auth';
import type { TestContext } from '../helpers/context';

export interface TestOrg {
  org: string;
  orgName: string;
  owner: string;
  /** Bearer header value for a dashboard user of this organization. */
  admin(role?: AdminClaims['role'], sub?: string): string;
}

export function newOrg(ctx: TestContext, overrides: Partial<{ org: string; orgName: string }> = {}): TestOrg {
  const suffix = randomBytes(5).toString('hex');
  const org = overrides.org ?? `org_${suffix}`;
  const orgName = overrides.orgName ?? `Academy ${suffix}`;
  const owner = `user_${suffix}`;
  return {
    org,
    orgName,
    owner,
    admin: (role = 'owner', sub = owner) => `Bearer ${signAdminToken({ sub, org, org_name: orgName, role }, ctx.config.JWT_SECRET, { issuer: ctx.config.JWT_ISSUER })}`,
  };
}

/** Creates an API key through the admin API and returns its token and id. */
export async function createApiKey(ctx: TestContext, org: TestOrg, name = 'server key'): Promise<{ id: string; token: string }> {
  const res = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name }).expect(201);
  return { id: res.body.id, token: res.body.token };
}

export function certificateInput(overrides: Record<string, unknown> = {}) {
  return {
    recipient_name: 'Ada Lovelace',
    program_title: 'Analytical Engines 101',
    issue_date: '2026-05-01',
    ...overrides,
  };
}

export async function issueCertificate(ctx: TestContext, org: TestOrg, overrides: Record<string, unknown> = {}) {
  const res = await request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput(overrides)).expect(201);
  return res.body as { id: string; verification_code: string; certificate_number: string; status: string };
}

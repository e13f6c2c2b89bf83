import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestContext } from '../helpers/context';
import { linkToken } from '../helpers/mailbox';

export const ORIGIN = 'http://127.0.0.1:8080';
export const PASSWORD = 'correct horse battery';

export interface SignedUp {
  email: string;
  accountId: string;
  organizationId: string | null;
  accessToken: string | null;
  /** `pp_refresh=<token>` for a Cookie header. */
  cookie: string;
  body: Record<string, unknown>;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}.${randomBytes(5).toString('hex')}@example.com`;
}

/** The refresh cookie a response set, as a `Cookie` header value (undefined when none). */
export function refreshCookieOf(res: request.Response): string | undefined {
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.find((line) => line.startsWith('pp_refresh='));
  return cookie?.split(';')[0];
}

/** Signs up as a person does: asks (202), reads the mailed link, confirms the email (201, signed in). */
export async function signUp(ctx: TestContext, body: Record<string, unknown> = {}): Promise<SignedUp> {
  const email = (body.email as string | undefined) ?? uniqueEmail();
  const signedUp = await request(ctx.app)
    .post('/accounts/v1/signup')
    .set('Origin', ORIGIN)
    .send({ email, password: PASSWORD, name: 'Ada Lovelace', organization_name: 'Analytical Academy', ...body });
  // 201: an invitation mailed to this address proved it, so the account is made at once; else the mailed link makes it.
  expect([201, 202]).toContain(signedUp.status);
  const res =
    signedUp.status === 201
      ? signedUp
      : await request(ctx.app)
          .post('/accounts/v1/verify-email')
          .set('Origin', ORIGIN)
          .send({ token: linkToken(ctx.mailbox.last(email), 'verify-email'), password: (body.password as string | undefined) ?? PASSWORD })
          .expect(201);
  return {
    email,
    accountId: res.body.account.id,
    organizationId: res.body.organization?.id ?? null,
    accessToken: res.body.access_token,
    cookie: refreshCookieOf(res)!,
    body: res.body,
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createDatabase } from '@platform/service-kit/db';
import { createLogger } from '@platform/service-kit/logger';
import { parseConfig } from '@platform/service-kit/config';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../src/config';
import { deleteExpiredWebhookBodies, scheduleWebhookBodyRetention, WEBHOOK_RETENTION_LOCK } from '../src/features/payments/webhook-body-retention';

const db = createDatabase(process.env.TEST_DATABASE_URL!, CERTIFICATE_SCHEMA, 3);
afterAll(() => db.destroy());

/** A stored receipt of an authenticated call, received `daysAgo` days ago. */
async function receiptAged(daysAgo: number): Promise<number> {
  const body = Buffer.from(JSON.stringify({ event: 'charge.success', data: { reference: `pay_${randomBytes(6).toString('hex')}` } }));
  const [row] = await db('payment_webhooks')
    .insert({
      gateway: 'gateway-a',
      outcome: 'activated',
      body,
      body_size: body.length,
      body_sha256: createHash('sha256').update(body).digest('hex'),
      received_at: db.raw(`now() - make_interval(days => ?)`, [daysAgo]),
    })
    .returning('id');
  return (row as { id: number }).id;
}

const bodyOf = async (id: number) => (await db('payment_webhooks').where({ id }).first()).body as Buffer | null;

describe('payment-webhook body retention job', () => {
  it('deletes the bodies of receipts older than the retention period and keeps their metadata', async () => {
    const old = await receiptAged(400);
    const recent = await receiptAged(300);
    const result = await deleteExpiredWebhookBodies(db, 365);
    expect(result).toMatchObject({ ran: true });
    expect(result.ran && result.deleted_bodies).toBeGreaterThanOrEqual(1);
    expect(await bodyOf(old)).toBeNull();
    expect(await bodyOf(recent)).not.toBeNull();
    expect(await db('payment_webhooks').where({ id: old }).first()).toMatchObject({ gateway: 'gateway-a', outcome: 'activated', body_size: expect.any(Number), body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('does nothing while another replica holds the lock', async () => {
    const old = await receiptAged(400);
    await db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [WEBHOOK_RETENTION_LOCK]);
      expect(await deleteExpiredWebhookBodies(db, 365)).toEqual({ ran: false, reason: 'another replica is running it' });
    });
    expect(await bodyOf(old)).not.toBeNull();
    expect(await deleteExpiredWebhookBodies(db, 365)).toMatchObject({ ran: true });
    expect(await bodyOf(old)).toBeNull();
  });

  it('runs in the server process at start-up, logs what it deleted, and stops after the run in progress', async () => {
    const old = await receiptAged(400);
    const lines: string[] = [];
    const logger = createLogger('certificate', 'info', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const job = scheduleWebhookBodyRetention(db, 365, logger, 60 * 60 * 1000);
    await job.stop();
    expect(await bodyOf(old)).toBeNull();
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ msg: 'expired payment-webhook bodies deleted', retention_days: 365 })]);
  });

  it('runs once from the CLI with PAYMENT_WEBHOOK_RETENTION_DAYS', async () => {
    const old = await receiptAged(10);
    const recent = await receiptAged(3);
    const serviceDir = path.resolve(__dirname, '..');
    const env = { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, PAYMENT_WEBHOOK_RETENTION_DAYS: '7' };
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', 'retention'], { cwd: serviceDir, env }, (error, out) => resolve({ code: error ? 1 : 0, stdout: out })),
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ran: true, deleted_bodies: expect.any(Number) });
    expect(await bodyOf(old)).toBeNull();
    expect(await bodyOf(recent)).not.toBeNull();
  });
});

describe('PAYMENT_WEBHOOK_RETENTION_DAYS', () => {
  const parse = (env: Record<string, string>) => parseConfig(certificateConfigSchema, { NODE_ENV: 'test', ...env });

  it('defaults to 30 days and takes a whole number of days', () => {
    expect(parse({}).PAYMENT_WEBHOOK_RETENTION_DAYS).toBe(30);
    expect(parse({ PAYMENT_WEBHOOK_RETENTION_DAYS: '90' }).PAYMENT_WEBHOOK_RETENTION_DAYS).toBe(90);
  });

  it.each(['0', '-1', '1.5', 'forever'])('refuses %s with a line naming the variable', (value) => {
    expect(() => parse({ PAYMENT_WEBHOOK_RETENTION_DAYS: value })).toThrow(/^Invalid environment variable PAYMENT_WEBHOOK_RETENTION_DAYS: /);
  });
});

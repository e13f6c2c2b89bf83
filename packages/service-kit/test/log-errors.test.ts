import express from 'express';
import request from 'supertest';
import { DEFAULT_DATABASE_URL } from '../src/config';
import { createDatabase, type Knex } from '../src/database';
import { errorHandler } from '../src/error-handler';
import { createLogger } from '../src/logger';

/** The server's maintenance database: the tables below are temporary, they vanish with the session. */
function maintenanceUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_BASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  url.pathname = '/postgres';
  return url.toString();
}

function capturedLogger() {
  const chunks: string[] = [];
  const logger = createLogger('test-service', 'info', { write: (line: string) => void chunks.push(line) });
  const lines = () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, text: () => chunks.join('') };
}

describe('database errors in log lines', () => {
  let db: Knex;
  /** A real foreign-key violation from Postgres, raised through knex (which puts the statement in front of the message). */
  let violation: Error & { code?: string };

  beforeAll(async () => {
    db = createDatabase(maintenanceUrl(), 'public', 1); // one connection: the temporary tables stay visible
    await db.raw('create temporary table log_parent (id text primary key)');
    await db.raw('create temporary table log_child (id text primary key, parent_id text not null references log_parent (id))');
    violation = await db('log_child')
      .insert({ id: 'child_1', parent_id: 'missing_parent_7' })
      .then(() => {
        throw new Error('the insert should have failed');
      })
      .catch((err: Error) => err);
    // The premise: knex's error names the statement and its values.
    expect(violation.message).toMatch(/^insert into "log_child"/);
    expect(violation.code).toBe('23503');
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('logs the Postgres code, constraint and table, and no SQL in message, stack or any field', () => {
    const { logger, lines, text } = capturedLogger();
    logger.error({ err: violation }, 'could not record');
    const [line] = lines();
    expect(line).toMatchObject({ level: 50, msg: 'could not record' });
    expect(line!.err).toMatchObject({
      code: '23503',
      constraint: 'log_child_parent_id_fkey',
      table: 'log_child',
      message: 'insert or update on table "log_child" violates foreign key constraint "log_child_parent_id_fkey"',
    });
    expect(line!.err).not.toHaveProperty('sql');
    expect(String((line!.err as { stack: string }).stack)).toMatch(/^error: insert or update on table "log_child" violates/);
    expect(text().toLowerCase()).not.toContain('insert into');
    expect(text()).not.toContain('"log_child" ("id", "parent_id")');
    // The original error is untouched: only the logged copy loses its statement.
    expect(violation.message).toMatch(/^insert into "log_child"/);
  });

  it('keeps SQL out of the line when the error is the message, a cause, or under `error`, at any level', () => {
    const { logger, text, lines } = capturedLogger();
    logger.error(violation);
    logger.warn({ err: violation });
    logger.info({ error: violation }, 'noted');
    logger.error({ err: new Error('could not finish the job', { cause: violation }) }, 'job failed');
    expect(lines().map((line) => line.msg)).toEqual([
      'insert or update on table "log_child" violates foreign key constraint "log_child_parent_id_fkey"',
      'insert or update on table "log_child" violates foreign key constraint "log_child_parent_id_fkey"',
      'noted',
      'job failed',
    ]);
    expect(lines()[3]!.err).toMatchObject({ message: expect.stringContaining('could not finish the job') });
    expect(text().toLowerCase()).not.toContain('insert into');
    expect(text()).not.toContain('missing_parent_7');
  });

  it('an unhandled database error answers 500 and its error line names the code without the statement', async () => {
    const { logger, lines, text } = capturedLogger();
    const app = express();
    app.post('/things', async (_req, _res, next) => {
      await db('log_child').insert({ id: 'child_2', parent_id: 'missing_parent_8' }).catch(next);
    });
    app.use(errorHandler(logger));
    const res = await request(app).post('/things').expect(500);
    expect(res.body).toMatchObject({ code: 'internal_error' });
    const errorLines = lines().filter((line) => (line.level as number) >= 50);
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]!.err).toMatchObject({ code: '23503', constraint: 'log_child_parent_id_fkey', table: 'log_child' });
    expect(text().toLowerCase()).not.toContain('insert into');
    expect(text()).not.toContain('missing_parent_8');
  });

  it('a pool timeout is logged without the statement and bindings it carries', () => {
    const { logger, text, lines } = capturedLogger();
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
      sql: 'select * from "api_keys" where "token_hash" = ?',
      bindings: ['secret-hash-value'],
    });
    logger.warn({ err: timeout }, 'busy');
    expect(lines()[0]!.err).toMatchObject({ message: 'Knex: Timeout acquiring a connection. The pool is probably full.' });
    expect(text()).not.toContain('api_keys');
    expect(text()).not.toContain('secret-hash-value');
  });
});

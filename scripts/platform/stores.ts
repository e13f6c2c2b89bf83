/**
 * Which Postgres and Redis `pnpm platform` works on. An explicit DATABASE_URL (or a per-service one) and REDIS_URL always
 * win. Otherwise the ones `.data/running.json` names, also when the start that wrote it was killed (its embedded
 * Postgres may still run; with a database configured, a killed start's record is not consulted at all); when they do
 * not answer, the CLI stops with one line rather than opening another server.
 * With no running.json, the defaults `pnpm start` uses (127.0.0.1:5432, 127.0.0.1:6379), unless the last start of this
 * checkout used an embedded Postgres: then it is not running, and the CLI says so instead of opening the machine's.
 */
import { connect } from 'node:net';
import { redactUrl } from '@platform/service-kit/db';
import { readCheckoutData } from '../checkout-data';
import { databaseConfigured, readRunningRecord, starterRuns } from '../running-state';

/** Whether anything accepts a TCP connection at the URL's host and port (within a second). */
export function answers(url: string, defaultPort: number): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
    port = Number(parsed.port || defaultPort);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const RESTART = 'run `pnpm start` (it stops what a killed start left running and starts afresh)';

/**
 * Fills DATABASE_URL, REDIS_URL and REDIS_PREFIX (and SMTP_URL with MAIL_INBOX_URL while the recorded start runs its mail
 * catcher) in `env` from the record where unset. Answers the one line to stop
 * with when the recorded stores do not answer, or the last start's embedded Postgres is not running; `note` is told
 * when the stores of a killed start are used.
 */
export async function adoptRecordedStores(root: string, env: NodeJS.ProcessEnv, note: (line: string) => void): Promise<string | undefined> {
  const record = readRunningRecord(root);
  // The running system's local mail catcher, so the CLI's mails (an owner's invitation) reach the same inbox.
  if (record?.mail && env.SMTP_URL === undefined && starterRuns(record)) Object.assign(env, { SMTP_URL: record.mail.smtpUrl, MAIL_INBOX_URL: env.MAIL_INBOX_URL ?? record.mail.inboxUrl });
  const needDatabase = !databaseConfigured(env);
  const needRedis = env.REDIS_URL === undefined;
  if (!needDatabase && !needRedis) return undefined;
  if (record?.databaseUrl !== undefined) {
    const runs = starterRuns(record);
    // A database chosen explicitly is a choice of other stores: a dead start's Redis is not forced on it.
    if (!needDatabase && !runs) return undefined;
    const gone = runs ? '' : ` (the pnpm start that wrote it, pid ${record.pid}, is gone)`;
    if (needDatabase) {
      if (!(await answers(record.databaseUrl, 5432))) {
        return `pnpm platform: .data/running.json names Postgres at ${redactUrl(record.databaseUrl)}, which does not answer${gone}: ${RESTART}, or set DATABASE_URL to choose a database.`;
      }
      env.DATABASE_URL = record.databaseUrl;
    }
    if (needRedis && record.redisUrl !== undefined) {
      if (!(await answers(record.redisUrl, 6379))) {
        return `pnpm platform: .data/running.json names Redis at ${redactUrl(record.redisUrl)}, which does not answer${gone}: ${RESTART}, or set REDIS_URL to choose a server.`;
      }
      env.REDIS_URL = record.redisUrl;
    }
    if (record.redisPrefix !== undefined) env.REDIS_PREFIX ??= record.redisPrefix;
    if (gone) note(`pnpm platform: using the stores named by .data/running.json${gone}; \`pnpm start\` stops what that start left running.`);
    return undefined;
  }
  const last = readCheckoutData(root).lastStores;
  if (needDatabase && last?.postgres.embedded) {
    return `pnpm platform: the platform is not running, and this checkout's last start used an embedded Postgres (${redactUrl(last.postgres.url)}): start it with \`pnpm start\`, or set DATABASE_URL to choose a database.`;
  }
  return undefined;
}

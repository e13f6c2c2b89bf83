import { ApiError, type Knex } from '@platform/service-kit';

export interface ThrottleSettings {
  windowSeconds: number;
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
}

/**
 * Failed sign-ins counted per account (its email, known or not) and per client address in a fixed window, in
 * Postgres (`sign_in_failures`). Once a subject has its maximum of failures, every sign-in for it is refused with
 * 429 `too_many_attempts` until the window ends, the right password included, so guessing cannot go on by luck.
 * A successful sign-in clears the account's count (not the address's).
 */
export function signInThrottle(db: Knex, settings: ThrottleSettings) {
  const subjects = (email: string, address: string) => [
    { subject: `account:${email.toLowerCase()}`, max: settings.maxFailuresPerAccount },
    { subject: `address:${address}`, max: settings.maxFailuresPerAddress },
  ];
  return {
    /** Refuses (429 with `Retry-After`) when the account or the address has used up its failures in this window. */
    async check(email: string, address: string): Promise<void> {
      for (const { subject, max } of subjects(email, address)) {
        const row = await db('sign_in_failures')
          .where({ subject })
          .where('failures', '>=', max)
          .where('window_started_at', '>', db.raw("now() - make_interval(secs => ?)", [settings.windowSeconds]))
          .first(db.raw("ceil(extract(epoch from window_started_at + make_interval(secs => ?) - now()))::int as retry_after", [settings.windowSeconds]));
        if (row) {
          const retryAfter = Math.max(1, Number(row.retry_after));
          throw new ApiError(429, 'too_many_attempts', 'Too many failed sign-in attempts; try again later', {}, { 'Retry-After': String(retryAfter) });
        }
      }
    },
    async recordFailure(email: string, address: string): Promise<void> {
      for (const { subject } of subjects(email, address)) {
        await db.raw(
          `insert into sign_in_failures (subject, failures, window_started_at) values (?, 1, now())
           on conflict (subject) do update set
             failures = case when sign_in_failures.window_started_at <= now() - make_interval(secs => ?) then 1 else sign_in_failures.failures + 1 end,
             window_started_at = case when sign_in_failures.window_started_at <= now() - make_interval(secs => ?) then now() else sign_in_failures.window_started_at end`,
          [subject, settings.windowSeconds, settings.windowSeconds],
        );
      }
    },
    async clearAccount(email: string): Promise<void> {
      await db('sign_in_failures').where({ subject: `account:${email.toLowerCase()}` }).delete();
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;

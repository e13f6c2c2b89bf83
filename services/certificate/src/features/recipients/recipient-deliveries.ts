import type { Knex } from '@platform/service-kit/db';
import type { Release } from '@platform/service-kit/governor';
import { MailUnavailableError, type Mailer } from '../mail';
import type { CertificateRow, CertificatesRepository, DeliveryOutcome, RecipientMailer } from '../certificates';
import { recipientMail } from './recipient-mail';

/** How many recipient mails of one dispatch are handed to the SMTP server at once (the mail budget may allow fewer). */
const PARALLEL_SENDS = 4;
/** A delivery still `pending` this long was left by a process that stopped: the sweep sends it. */
export const STALE_PENDING_SECONDS = 600;
const SWEEP_BATCH = 200;

export interface RecipientDeliveriesDeps {
  db: Knex;
  repository: Pick<CertificatesRepository, 'recordDelivery' | 'claimStalePending'>;
  mailer: Mailer;
  publicBaseUrl: string;
  /** Takes one unit of the governor's `mail` budget for the organization's tenant, waiting while it is refused. */
  mailBudget: (organizationId: string) => Promise<Release>;
  onError: (error: unknown, what: string) => void;
}

/** What a failed attempt records: a 5xx refusal is `bounced` with the server's answer; anything else `failed`. */
export function deliveryOutcomeOf(error: unknown): DeliveryOutcome {
  if (error instanceof MailUnavailableError) {
    if (error.permanent) return { status: 'bounced', error: error.smtpResponse ?? `SMTP ${error.smtpCode}` };
    return { status: 'failed', error: error.smtpResponse ?? 'The mail could not be handed to the SMTP server' };
  }
  return { status: 'failed', error: 'The mail could not be prepared' };
}

/**
 * The recipient mails of certificates issued with a `recipient_email`. The issuing transaction stores the delivery
 * `pending` (the outbox); once it has committed, `dispatch` sends those mails in the background under the governor's
 * mail budget of the organization, so the answer never waits for SMTP and a failed send loses no certificate: it is
 * recorded on the certificate (`failed`/`bounced` with the server's message) and the issuer can resend. A resend sends
 * in its request (which holds a mail unit already, as its route table entry declares).
 */
export function createRecipientDeliveries(deps: RecipientDeliveriesDeps): RecipientMailer & { sweep(): Promise<number>; idle(): Promise<void> } {
  const organizationNames = new Map<string, string>();

  async function organizationName(organizationId: string): Promise<string> {
    const known = organizationNames.get(organizationId);
    if (known) return known;
    const row = (await deps.db('organizations').where({ id: organizationId }).first('name')) as { name: string } | undefined;
    const name = row?.name ?? organizationId;
    if (organizationNames.size > 10_000) organizationNames.clear();
    organizationNames.set(organizationId, name);
    return name;
  }

  /** One attempt: the mail is built, handed over, and the outcome recorded; answers the certificate as recorded. */
  async function send(row: CertificateRow): Promise<CertificateRow> {
    let outcome: DeliveryOutcome;
    try {
      await deps.mailer.send(await recipientMail(row, await organizationName(row.organization_id), deps.publicBaseUrl));
      outcome = { status: 'sent' };
    } catch (error) {
      if (!(error instanceof MailUnavailableError)) deps.onError(error, 'recipient mail could not be prepared');
      outcome = deliveryOutcomeOf(error);
    }
    return (await deps.repository.recordDelivery(row.id, outcome)) ?? row;
  }

  /** Sends the pending mails of `rows`, at most PARALLEL_SENDS at once and each holding a unit of the mail budget. */
  async function sendAll(rows: CertificateRow[]): Promise<void> {
    const queue = rows.filter((row) => row.delivery_status === 'pending' && row.recipient_email);
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const release = await deps.mailBudget(row.organization_id);
        try {
          await send(row);
        } catch (error) {
          deps.onError(error, 'recipient mail delivery could not be recorded'); // stays pending: the sweep takes it
        } finally {
          release();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, queue.length) }, worker));
  }

  const inFlight = new Set<Promise<void>>();

  return {
    /** After the issuing transaction committed: sends its pending recipient mails in the background. */
    dispatch(rows: CertificateRow[]): void {
      if (!rows.some((row) => row.delivery_status === 'pending')) return;
      const run = sendAll(rows).catch((error: unknown) => deps.onError(error, 'recipient mails failed'));
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    },
    /** A resend, in the request that holds the mail unit. */
    send,
    /** Sends the deliveries a stopped process left pending (the server runs it periodically); answers how many. */
    async sweep(): Promise<number> {
      const rows = await deps.repository.claimStalePending(STALE_PENDING_SECONDS, SWEEP_BATCH);
      await sendAll(rows);
      return rows.length;
    },
    /** Waits for the background sends in progress (shutdown, tests). */
    async idle(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}

export type RecipientDeliveries = ReturnType<typeof createRecipientDeliveries>;

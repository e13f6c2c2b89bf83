import type { Knex } from '@platform/service-kit/db';

/** An invoice's place in the seller's numbering: the year, its number within the year, and how people read it. */
export interface InvoiceNumber {
  year: number;
  sequence: number;
  /** INV-2026-000001 */
  number: string;
}

export function formatInvoiceNumber(year: number, sequence: number): string {
  return `INV-${year}-${String(sequence).padStart(6, '0')}`;
}

/**
 * The next number of `year`, taken inside the caller's transaction. The year's counter row is created or incremented
 * by one statement that holds its row lock until the transaction ends: a concurrent activation waits for it, and a
 * transaction that rolls back gives its number back. So the numbers of a year are 1, 2, 3 … with no gap and no
 * duplicate, which a Postgres sequence cannot promise (a rolled-back `nextval` is lost).
 */
export async function allocateInvoiceNumber(trx: Knex.Transaction, year: number): Promise<InvoiceNumber> {
  const { rows } = (await trx.raw(
    `insert into invoice_counters (year, last_number) values (?, 1)
     on conflict (year) do update set last_number = invoice_counters.last_number + 1
     returning last_number`,
    [year],
  )) as { rows: { last_number: number }[] };
  const sequence = rows[0]!.last_number;
  return { year, sequence, number: formatInvoiceNumber(year, sequence) };
}

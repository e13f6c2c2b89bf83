/**
 * Request-body bytes in flight to the services on the dashboard's admin routes, per account and for the whole process.
 *
 * An upload is charged the bytes it has actually sent, chunk by chunk as they arrive, and gives them back when its
 * answer is done: a declared `Content-Length` reserves nothing, so a body that announces megabytes and then stalls
 * holds only what it sent (and is cut off by the body deadlines). An account never holds more than its cap. The
 * process total is a soft cap shared fairly: while it is reached, an account holding less than its fair share (the
 * total divided by the accounts with uploads in flight, this one included) is still admitted, and only accounts at or
 * over their share are refused. So any number of accounts filling the total cannot keep another account from its
 * first upload; the total can overshoot by at most the shares the late-comers take (never more than twice the cap).
 */
export type Refusal = 'account' | 'process';

export interface Upload {
  /** Charges `bytes` that just arrived: null when they fit, else which cap refuses them (nothing is charged then). */
  charge(bytes: number): Refusal | null;
  /** Gives every byte charged back (the answer is done, or the upload failed); safe to call more than once. */
  release(): void;
}

export type Admission = { ok: true; upload: Upload } | { ok: false; scope: Refusal };

interface Holder {
  bytes: number;
  uploads: number;
}

export class UploadBudget {
  private readonly holders = new Map<string, Holder>();
  private total = 0;

  constructor(
    private readonly accountCap: number,
    private readonly processCap: number,
  ) {}

  /**
   * Admits an upload of `account` that declares `declared` bytes (undefined: chunked), or refuses it at once when
   * those bytes could not fit: over the account's cap, or over the process total while the account has its share.
   */
  admit(account: string, declared: number | undefined): Admission {
    const refusal = this.refusal(account, declared ?? 1);
    if (refusal) return { ok: false, scope: refusal };
    const holder = this.holders.get(account) ?? { bytes: 0, uploads: 0 };
    holder.uploads += 1;
    this.holders.set(account, holder);
    let charged = 0;
    let released = false;
    return {
      ok: true,
      upload: {
        charge: (bytes) => {
          if (released) return null;
          const refused = this.refusal(account, bytes);
          if (refused) return refused;
          holder.bytes += bytes;
          this.total += bytes;
          charged += bytes;
          return null;
        },
        release: () => {
          if (released) return;
          released = true;
          holder.bytes -= charged;
          this.total -= charged;
          holder.uploads -= 1;
          if (holder.uploads === 0) this.holders.delete(account);
        },
      },
    };
  }

  /** Bytes charged right now (all accounts). */
  get inFlight(): number {
    return this.total;
  }

  private refusal(account: string, bytes: number): Refusal | null {
    const held = this.holders.get(account)?.bytes ?? 0;
    if (held + bytes > this.accountCap) return 'account';
    if (this.total + bytes > this.processCap && held >= this.fairShare(account)) return 'process';
    return null;
  }

  /** The process total divided among the accounts with uploads in flight, `account` counted whether or not it has one. */
  private fairShare(account: string): number {
    const accounts = this.holders.size + (this.holders.has(account) ? 0 : 1);
    return this.processCap / accounts;
  }
}

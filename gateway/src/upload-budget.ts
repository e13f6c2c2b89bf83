import { FairShare } from '@platform/service-kit/fair-share';

/**
 * Request-body bytes in flight to the services on the dashboard's admin routes, per account and for the whole process.
 *
 * An upload is charged the bytes it has actually sent, chunk by chunk as they arrive, and gives them back when its
 * answer is done: a declared `Content-Length` reserves nothing, so a body that announces megabytes and then stalls
 * holds only what it sent (and is cut off by the body deadlines). An account never holds more than its cap; the process
 * total is a soft cap shared fairly among the accounts uploading (`FairShare`), so any number of accounts filling it
 * cannot keep another account from its first upload.
 */
export type Refusal = 'account' | 'process';

export interface Upload {
  /** Charges `bytes` that just arrived: null when they fit, else which cap refuses them (nothing is charged then). */
  charge(bytes: number): Refusal | null;
  /** Gives every byte charged back (the answer is done, or the upload failed); safe to call more than once. */
  release(): void;
}

export type Admission = { ok: true; upload: Upload } | { ok: false; scope: Refusal };

export class UploadBudget {
  private readonly bytes: FairShare;

  constructor(
    private readonly accountCap: number,
    processCap: number,
  ) {
    this.bytes = new FairShare(processCap);
  }

  /**
   * Admits an upload of `account` that declares `declared` bytes (undefined: chunked), or refuses it at once when
   * those bytes could not fit: over the account's cap, or over the process total while the account has its share.
   */
  admit(account: string, declared: number | undefined): Admission {
    const refusal = this.refusal(account, declared ?? 1);
    if (refusal) return { ok: false, scope: refusal };
    let charged = 0;
    let released = false;
    return {
      ok: true,
      upload: {
        charge: (bytes) => {
          if (released) return null;
          const refused = this.refusal(account, bytes);
          if (refused) return refused;
          this.bytes.take(account, bytes);
          charged += bytes;
          return null;
        },
        release: () => {
          if (released) return;
          released = true;
          this.bytes.give(account, charged);
        },
      },
    };
  }

  /** Bytes charged right now (all accounts). */
  get inFlight(): number {
    return this.bytes.inUse;
  }

  private refusal(account: string, bytes: number): Refusal | null {
    if (this.bytes.heldBy(account) + bytes > this.accountCap) return 'account';
    if (!this.bytes.admits(account, bytes)) return 'process';
    return null;
  }
}

/**
 * Request-body bytes in flight to the services on the dashboard's admin routes, per account and for the whole process.
 * An upload reserves its declared length (or, for a chunked body, its route's cap) before its first byte is forwarded
 * and gives it back when its answer is done. A reservation past either cap is refused, so neither one account nor
 * everyone together can hold more than their share of uploads open at once.
 */
export type Reservation = { ok: true; release: () => void } | { ok: false; scope: 'account' | 'process' };

export class UploadBudget {
  private readonly perAccount = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly accountCap: number,
    private readonly processCap: number,
  ) {}

  reserve(account: string, bytes: number): Reservation {
    if (bytes <= 0) return { ok: true, release: noop };
    const held = this.perAccount.get(account) ?? 0;
    if (held + bytes > this.accountCap) return { ok: false, scope: 'account' };
    if (this.total + bytes > this.processCap) return { ok: false, scope: 'process' };
    this.perAccount.set(account, held + bytes);
    this.total += bytes;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.total -= bytes;
        const left = (this.perAccount.get(account) ?? bytes) - bytes;
        if (left <= 0) this.perAccount.delete(account);
        else this.perAccount.set(account, left);
      },
    };
  }

  /** Bytes reserved right now (all accounts). */
  get inFlight(): number {
    return this.total;
  }
}

function noop(): void {}

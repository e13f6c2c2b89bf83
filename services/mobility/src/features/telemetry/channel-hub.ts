import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';

export type ChannelListener = (message: string) => void;

/**
 * Redis pub/sub fan-out for one process: ONE subscriber connection (opened on first use) shared by every listener,
 * SUBSCRIBE when a channel gets its first listener and UNSUBSCRIBE when its last one leaves, so a process holds one
 * Redis subscription per watched job however many clients watch it, and none once they have all gone.
 */
export class ChannelHub {
  private subscriber: Redis | undefined;
  private readonly listeners = new Map<string, Set<ChannelListener>>();

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** Starts delivering the channel's messages to `listener`; resolves once Redis confirmed the subscription. Returns the release. */
  async listen(channel: string, listener: ChannelListener): Promise<() => void> {
    let set = this.listeners.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.remove(channel, listener);
    };
    try {
      // Commands on one connection run in order, so a SUBSCRIBE issued after an UNSUBSCRIBE of the same channel wins.
      if (first) await this.connection().subscribe(channel);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Listeners this process holds on the channel (0 when nobody watches it). */
  listenerCount(channel: string): number {
    return this.listeners.get(channel)?.size ?? 0;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.redis.publish(channel, message);
  }

  /** Drops every listener and closes the subscriber connection (shutdown). */
  async close(): Promise<void> {
    this.listeners.clear();
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  private remove(channel: string, listener: ChannelListener): void {
    const set = this.listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(channel);
    this.subscriber?.unsubscribe(channel).catch((err: unknown) => this.logger.warn({ err }, 'could not unsubscribe from a job channel'));
  }

  private connection(): Redis {
    if (!this.subscriber) {
      const subscriber = this.redis.duplicate();
      subscriber.on('message', (channel: string, message: string) => {
        for (const listener of this.listeners.get(channel) ?? []) {
          try {
            listener(message);
          } catch (err) {
            this.logger.warn({ err }, 'a job channel listener failed'); // one bad message or client must not stop the others
          }
        }
      });
      subscriber.on('error', (err: unknown) => this.logger.warn({ err }, 'job channel subscriber error'));
      this.subscriber = subscriber;
    }
    return this.subscriber;
  }
}

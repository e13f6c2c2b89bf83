import type { Response } from 'express';
import type { ChannelHub } from './channel-hub';
import type { Telemetry } from '../fleet';
import type { JobMessage, JobView } from './job-channels';

/** A client this far behind (bytes written but not yet taken by its socket) is too slow to follow: its stream ends. */
const MAX_BUFFERED_BYTES = 256 * 1024;

export interface JobStreamOptions {
  hub: ChannelHub;
  channel: string;
  /** The job as GET shows it; throws (404) when it is not the caller's. */
  snapshot(): Promise<JobView>;
  isTerminal(status: string): boolean;
  heartbeatMs: number;
  /** At most one `location` event per this many milliseconds; a newer position replaces one still waiting. */
  locationEveryMs: number;
  /** Aborted when the process shuts down: every open stream ends, so draining does not wait for them. */
  shutdown: AbortSignal;
  /** Runs once when the stream ends, whoever ended it. */
  onEnd?(): void;
}

/**
 * One client's Server-Sent Events stream of a job: subscribes first (so no change between the snapshot and the
 * subscription is lost), answers the snapshot as the first `status` event, then every newer status and position,
 * a heartbeat comment every `heartbeatMs`, and ends after the status event of a terminal status. A client that hangs
 * up releases its subscription, timers and listeners at once.
 */
export async function streamJob(res: Response, options: JobStreamOptions): Promise<void> {
  const early: JobMessage[] = [];
  let deliver: (message: JobMessage) => void = (message) => early.push(message);
  let release: (() => void) | undefined;
  let snapshot: JobView;
  try {
    release = await options.hub.listen(options.channel, (raw) => deliver(JSON.parse(raw) as JobMessage));
    snapshot = await options.snapshot();
  } catch (error) {
    release?.();
    options.onEnd?.();
    throw error;
  }
  const session = new StreamSession(res, options, snapshot.sequence, release);
  if (!session.start(snapshot)) return;
  deliver = (message) => session.receive(message);
  for (const message of early) session.receive(message);
}

class StreamSession {
  private eventId = 0;
  private ended = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private locationTimer: NodeJS.Timeout | undefined;
  private lastLocationAt = 0;
  private pendingLocation: Telemetry | undefined;

  constructor(
    private readonly res: Response,
    private readonly options: JobStreamOptions,
    private lastSequence: number,
    private readonly unsubscribe: () => void,
  ) {}

  /** Answers the headers and the snapshot; false when the stream is already over (client gone, shutting down, job ended). */
  start(snapshot: JobView): boolean {
    if (this.res.destroyed || this.options.shutdown.aborted) {
      this.end();
      return false;
    }
    this.res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    this.res.flushHeaders();
    this.res.once('close', this.end);
    this.options.shutdown.addEventListener('abort', this.end);
    this.res.write('retry: 3000\n\n');
    this.heartbeat = setInterval(() => this.res.write(': heartbeat\n\n'), this.options.heartbeatMs);
    this.status(snapshot);
    return !this.ended;
  }

  receive(message: JobMessage): void {
    if (this.ended) return;
    if (message.event === 'status') this.status(message.data);
    else this.location(message.data);
  }

  /** A status event newer than the last one sent (the sequence drops repeats and changes the snapshot already holds). */
  private status(view: JobView): void {
    if (view.sequence < this.lastSequence || (this.eventId > 0 && view.sequence === this.lastSequence)) return;
    this.lastSequence = view.sequence;
    this.write('status', view);
    if (this.options.isTerminal(view.status)) this.end();
  }

  private location(position: Telemetry): void {
    const wait = this.lastLocationAt + this.options.locationEveryMs - Date.now();
    if (wait <= 0 && !this.locationTimer) return this.sendLocation(position);
    this.pendingLocation = position;
    this.locationTimer ??= setTimeout(() => {
      this.locationTimer = undefined;
      const pending = this.pendingLocation;
      this.pendingLocation = undefined;
      if (pending && !this.ended) this.sendLocation(pending);
    }, Math.max(0, wait));
  }

  private sendLocation(position: Telemetry): void {
    this.lastLocationAt = Date.now();
    this.write('location', position);
  }

  private write(event: string, data: unknown): void {
    this.eventId += 1;
    this.res.write(`id: ${this.eventId}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.end();
  }

  /** Frees everything the stream held; ends the answer unless the client already hung up. */
  private readonly end = (): void => {
    if (this.ended) return;
    this.ended = true;
    this.options.shutdown.removeEventListener('abort', this.end);
    this.res.off('close', this.end);
    clearInterval(this.heartbeat);
    clearTimeout(this.locationTimer);
    this.unsubscribe();
    this.options.onEnd?.();
    if (!this.res.writableEnded) this.res.end();
  };
}

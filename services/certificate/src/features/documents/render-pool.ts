import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentInput } from './document-renderers';
import type { DocumentFormat } from './documents.repository';
import { createRenderQueue } from './render-queue';

/**
 * What the service sends a render worker: a document to draw, images to decode (an uploaded template's: the answer
 * holds a byte per image, 1 when it decoded), or (tests, drills) a hold until released.
 */
export type WorkerRequest =
  | { kind: 'render'; id: number; format: DocumentFormat; input: DocumentInput }
  | { kind: 'decode'; id: number; images: Uint8Array[] }
  | { kind: 'hold'; id: number; gate: SharedArrayBuffer };
export type WorkerReply = { id: number; ok: true; content: Uint8Array } | { id: number; ok: false; error: string };

export interface RenderPoolOptions {
  /** Worker threads, started on first use. */
  workers: number;
  /** Jobs waiting for a free worker, all organizations together; one more is refused with `RenderQueueFullError`. */
  maxQueued: number;
  /** A render still running after this long is abandoned: its worker is stopped and replaced. */
  timeoutMs: number;
}

export class RenderQueueFullError extends Error {
  constructor() {
    super('The document render queue is full');
  }
}

/** Whose job it is (the queue serves organizations in turn) and, optionally, a signal that withdraws it while it waits. */
export interface JobOwner {
  organization: string;
  signal?: AbortSignal;
}

/** A job withdrawn by its signal before a worker took it. */
export class RenderWithdrawnError extends Error {
  constructor() {
    super('The render was withdrawn before it started');
  }
}

interface Job {
  organization: string;
  request: WorkerRequest;
  resolve(content: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The worker file: the compiled `.js` beside this one, or under ts-jest/tsx the `.ts` source, loaded through tsx's
 * require hook (a worker thread does not inherit the parent's TypeScript loader).
 */
function startWorker(): Worker {
  const file = path.join(__dirname, `document-render.worker${path.extname(__filename)}`);
  const limits = { resourceLimits: RESOURCE_LIMITS };
  if (file.endsWith('.js')) return new Worker(file, limits);
  return new Worker(`require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`, { eval: true, ...limits });
}

/**
 * A render needs a few MB of JavaScript heap (the images and the canvas live in native memory); a small heap makes the
 * worker collect its garbage (pdfkit's decoded PNG buffers) early instead of growing towards the container's limit.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 };

/**
 * The worker threads and their queue: a job goes to an idle worker (started on demand, at most `workers`) or waits (at
 * most `maxQueued`, served organization by organization, see `render-queue.ts`); a worker that fails, exits or overruns
 * `timeoutMs` is replaced and its job rejected.
 */
function workerSlots(options: RenderPoolOptions) {
  const slots: Slot[] = [];
  const queue = createRenderQueue<Job>();
  let closed = false;
  const runningOf = (organization: string) => slots.filter((s) => s.job?.organization === organization).length;

  function finish(slot: Slot, outcome: { content: Buffer } | { error: Error }) {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    slot.worker.unref();
    if (job) {
      if ('content' in outcome) job.resolve(outcome.content);
      else job.reject(outcome.error);
    }
    dispatch();
  }

  function replace(slot: Slot, error: Error) {
    const old = slot.worker;
    old.removeAllListeners();
    void old.terminate();
    slot.worker = spawn(slot);
    finish(slot, { error });
  }

  function spawn(slot: Slot): Worker {
    const worker = startWorker();
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if (slot.job?.request.id !== reply.id) return;
      if (reply.ok) finish(slot, { content: Buffer.from(reply.content.buffer, reply.content.byteOffset, reply.content.byteLength) });
      else finish(slot, { error: new Error(`Document render failed: ${reply.error}`) });
    });
    worker.on('error', (error) => replace(slot, error));
    worker.on('exit', (code) => {
      if (!closed) replace(slot, new Error(`Document render worker exited with code ${code}`));
    });
    return worker;
  }

  function dispatch() {
    if (closed) return;
    while (queue.size) {
      let slot = slots.find((s) => !s.job);
      if (!slot && slots.length < options.workers) {
        slot = { worker: undefined as unknown as Worker, job: null, timer: null };
        slot.worker = spawn(slot);
        slots.push(slot);
      }
      if (!slot) return;
      const job = queue.next(runningOf)!;
      slot.job = job;
      slot.worker.ref(); // a render in progress keeps the process up; an idle pool does not
      if (job.request.kind !== 'hold') {
        const busy = slot;
        busy.timer = setTimeout(() => replace(busy, new Error(`Document render took longer than ${options.timeoutMs} ms`)), options.timeoutMs);
      }
      slot.worker.postMessage(job.request);
    }
  }

  return {
    submit(request: WorkerRequest, owner: JobOwner): Promise<Buffer> {
      if (closed) return Promise.reject(new Error('The render pool is closed'));
      if (owner.signal?.aborted) return Promise.reject(new RenderWithdrawnError());
      if (queue.size >= options.maxQueued) return Promise.reject(new RenderQueueFullError());
      return new Promise<Buffer>((resolve, reject) => {
        const withdraw = () => {
          if (queue.remove(job)) reject(new RenderWithdrawnError());
        };
        const settle = () => owner.signal?.removeEventListener('abort', withdraw);
        const job: Job = {
          organization: owner.organization,
          request,
          resolve: (content) => (settle(), resolve(content)),
          reject: (error) => (settle(), reject(error)),
        };
        owner.signal?.addEventListener('abort', withdraw, { once: true });
        queue.push(job);
        dispatch();
      });
    },
    /** Whether a worker has taken the job with this id. */
    running: (id: number) => slots.some((s) => s.job?.request.id === id),
    hasRoom: () => !closed && queue.size < options.maxQueued,
    load: () => ({ running: slots.filter((s) => s.job).length, queued: queue.size, workers: options.workers }),
    /**
     * Seconds until asking again about the organization's jobs is worth it, from its own place in the queue, not the
     * queue's length: its last waiting job (or, with none waiting and none running, one more job) starts once the renders
     * running now and those the queue serves before it (`ahead`) have ended, a worker's round each; a job already
     * running is about done. At least 1, at most 30.
     */
    retryAfterSeconds(organization: string): number {
      if (!queue.waitingOf(organization) && runningOf(organization)) return 1;
      const running = slots.filter((s) => s.job).length;
      const toWaitFor = Math.max(0, running + queue.ahead(organization, runningOf) + 1 - options.workers);
      return Math.min(30, 1 + Math.ceil(toWaitFor / options.workers));
    },
    /** Rejects every job waiting or running and stops the workers. */
    async close(): Promise<void> {
      closed = true;
      for (const job of queue.drain()) job.reject(new Error('The render pool is closed'));
      await Promise.all(
        slots.map(async (slot) => {
          if (slot.timer) clearTimeout(slot.timer);
          slot.job?.reject(new Error('The render pool is closed'));
          slot.job = null;
          await slot.worker.terminate();
        }),
      );
      slots.length = 0;
    },
  };
}

/**
 * A bounded pool of render worker threads: a render never runs on the event loop that answers requests, at most
 * `workers` run at once, and at most `maxQueued` wait. Every job names its organization: a free worker takes the next
 * job of the organization with the fewest running, so one asking for its first render is next whatever others queue.
 */
export function createRenderPool(options: RenderPoolOptions) {
  const workers = workerSlots(options);
  const gates = new Set<SharedArrayBuffer>();
  let nextId = 1;

  function open(gate: SharedArrayBuffer) {
    gates.delete(gate);
    Atomics.store(new Int32Array(gate), 0, 1);
    Atomics.notify(new Int32Array(gate), 0);
  }

  return {
    render(format: DocumentFormat, input: DocumentInput, owner: JobOwner): Promise<Buffer> {
      return workers.submit({ kind: 'render', id: nextId++, format, input }, owner);
    },
    /** Whether each image decodes (decoded in a worker and released at once: the pixels never reach this thread). */
    async decode(images: Uint8Array[], owner: JobOwner): Promise<boolean[]> {
      const answer = await workers.submit({ kind: 'decode', id: nextId++, images }, owner);
      return images.map((_image, index) => answer[index] === 1);
    },
    /**
     * Occupies one worker until the returned function is called (tests and drills: a pool that is deliberately busy).
     * Resolves once a worker has taken the hold, which counts as a job of `organization` (none named: an organization
     * of its own).
     */
    async hold(organization = ''): Promise<() => void> {
      const gate = new SharedArrayBuffer(4);
      gates.add(gate);
      const id = nextId++;
      let refused: unknown;
      workers.submit({ kind: 'hold', id, gate }, { organization }).catch((error: unknown) => (refused = error));
      while (!workers.running(id)) {
        if (refused) throw refused;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return () => open(gate);
    },
    /** Whether one more job would be queued rather than refused. */
    hasRoom(): boolean {
      return workers.hasRoom();
    },
    /** Renders running and waiting. */
    load(): { running: number; queued: number; workers: number } {
      return workers.load();
    },
    /** `Retry-After` for the organization's jobs: from its place in the queue (see `workerSlots`). */
    retryAfterSeconds(organization: string): number {
      return workers.retryAfterSeconds(organization);
    },
    async close(): Promise<void> {
      for (const gate of [...gates]) open(gate);
      await workers.close();
    },
  };
}

export type RenderPool = ReturnType<typeof createRenderPool>;

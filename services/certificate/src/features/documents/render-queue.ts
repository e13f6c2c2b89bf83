/**
 * The render pool's waiting jobs, kept per organization so that no organization waits behind another's backlog: when a
 * worker frees up, the next job is the oldest waiting one of the organization with the fewest jobs running; among those,
 * the organization served least recently (one never served first), then the one whose oldest waiting job is oldest.
 * With one worker that is a round robin over the organizations with jobs waiting.
 */
export interface QueuedJob {
  organization: string;
}

/** What the choice of the next organization looks at. */
interface Candidate {
  organization: string;
  /** Its jobs running now. */
  running: number;
  /** When it was last served (a dispatch count), -1 when never. */
  servedAt: number;
  /** The order in which its oldest waiting job came. */
  headSeq: number;
}

function before(a: Candidate, b: Candidate): boolean {
  if (a.running !== b.running) return a.running < b.running;
  if (a.servedAt !== b.servedAt) return a.servedAt < b.servedAt;
  return a.headSeq < b.headSeq;
}

function first(candidates: Iterable<Candidate>): Candidate | undefined {
  let best: Candidate | undefined;
  for (const candidate of candidates) if (!best || before(candidate, best)) best = candidate;
  return best;
}

export function createRenderQueue<J extends QueuedJob>() {
  /** Each organization's waiting jobs, oldest first, with the order in which each came. */
  const waiting = new Map<string, Array<{ job: J; seq: number }>>();
  const servedAt = new Map<string, number>();
  let size = 0;
  let seq = 0;
  let dispatches = 0;

  function candidates(running: (organization: string) => number): Candidate[] {
    return [...waiting].map(([organization, jobs]) => ({ organization, running: running(organization), servedAt: servedAt.get(organization) ?? -1, headSeq: jobs[0]!.seq }));
  }

  return {
    get size() {
      return size;
    },
    push(job: J): void {
      const jobs = waiting.get(job.organization) ?? [];
      jobs.push({ job, seq: seq++ });
      waiting.set(job.organization, jobs);
      size++;
    },
    /** The organization's jobs waiting. */
    waitingOf(organization: string): number {
      return waiting.get(organization)?.length ?? 0;
    },
    /** Takes a job out before it is dispatched; false when it is not waiting (already running, or gone). */
    remove(job: J): boolean {
      const jobs = waiting.get(job.organization);
      const index = jobs?.findIndex((entry) => entry.job === job) ?? -1;
      if (!jobs || index < 0) return false;
      jobs.splice(index, 1);
      if (!jobs.length) waiting.delete(job.organization);
      size--;
      return true;
    },
    /** The job to dispatch next, taken out of the queue; `running` counts each organization's jobs running now. */
    next(running: (organization: string) => number): J | undefined {
      const chosen = first(candidates(running));
      if (!chosen) return undefined;
      const jobs = waiting.get(chosen.organization)!;
      const { job } = jobs.shift()!;
      if (!jobs.length) waiting.delete(chosen.organization);
      servedAt.set(chosen.organization, dispatches++);
      size--;
      return job;
    },
    /**
     * How many jobs would be dispatched before the organization's last waiting job (or, with none waiting, before one
     * more of its jobs), following the order above as workers free up: its own jobs ahead of it, and the jobs of the
     * organizations served before it in each round.
     */
    ahead(organization: string, running: (organization: string) => number): number {
      const left = new Map([...waiting].map(([name, jobs]) => [name, jobs.map((entry) => entry.seq)]));
      if (!left.has(organization)) left.set(organization, [seq]);
      const counts = new Map<string, number>();
      const served = new Map(servedAt);
      let tick = dispatches;
      for (let dispatched = 0; ; dispatched++) {
        const chosen = first(
          [...left].map(([name, seqs]) => ({ organization: name, running: running(name) + (counts.get(name) ?? 0), servedAt: served.get(name) ?? -1, headSeq: seqs[0]! })),
        )!;
        const seqs = left.get(chosen.organization)!;
        if (chosen.organization === organization && seqs.length === 1) return dispatched;
        seqs.shift();
        if (!seqs.length) left.delete(chosen.organization);
        counts.set(chosen.organization, (counts.get(chosen.organization) ?? 0) + 1);
        served.set(chosen.organization, tick++);
      }
    },
    /** Every waiting job, taken out (at close). */
    drain(): J[] {
      const jobs = [...waiting.values()].flatMap((entries) => entries.map((entry) => entry.job));
      waiting.clear();
      size = 0;
      return jobs;
    },
  };
}

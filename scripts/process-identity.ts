/**
 * A process named by its PID and its start time, so that a PID the kernel has since given to another program is never
 * taken for ours: a PID alone is reused, the pair (PID, start time in clock ticks since boot, field 22 of
 * /proc/<pid>/stat) is not. Where /proc does not exist (macOS) no start time is known and nothing is ever signalled on
 * the strength of a PID alone: the processes are only named.
 */
import { readFileSync } from 'node:fs';

export interface TrackedProcess {
  /** `gateway`, `certificate 2`, `embedded Postgres`, … */
  name: string;
  pid: number;
  /** Field 22 of /proc/<pid>/stat when it was started; undefined without /proc. */
  startTicks?: string;
}

/** The process's start time (clock ticks since boot), or undefined when it does not exist or /proc is not there. */
export function startTicksOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count the fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? undefined : fields[19]; // a zombie has ended: only its parent has not read its exit yet
  } catch {
    return undefined;
  }
}

export function track(name: string, pid: number | undefined): TrackedProcess | undefined {
  return pid === undefined ? undefined : { name, pid, startTicks: startTicksOf(pid) };
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `alive`: the very process that was recorded still runs; `gone`: it ended (its PID is free or now another program's);
 * `unknown`: something runs under that PID but without /proc its start time cannot be compared.
 */
export function processState(recorded: Pick<TrackedProcess, 'pid' | 'startTicks'>): 'alive' | 'gone' | 'unknown' {
  if (!Number.isInteger(recorded.pid) || recorded.pid <= 0 || !exists(recorded.pid)) return 'gone';
  const now = startTicksOf(recorded.pid);
  if (recorded.startTicks === undefined || now === undefined) return now === undefined && recorded.startTicks !== undefined ? 'gone' : 'unknown';
  return now === recorded.startTicks ? 'alive' : 'gone';
}

/** `kill 12 34` (the command a person types to stop them). */
export const killCommand = (processes: TrackedProcess[]) => `kill ${processes.map((p) => p.pid).join(' ')}`;

/**
 * Stops each process that is still the one recorded: `signal` (SIGTERM unless the process's own name asks for another:
 * SIGINT is Postgres's fast shutdown), then SIGKILL for any still running after `graceMs`. The identity is checked
 * again before every signal. Answers the ones that could not be stopped (not ours to signal, EPERM).
 */
export async function stopProcesses(processes: TrackedProcess[], graceMs = 15000): Promise<TrackedProcess[]> {
  const refused: TrackedProcess[] = [];
  const signal = (p: TrackedProcess, name: NodeJS.Signals) => {
    if (processState(p) !== 'alive') return;
    try {
      process.kill(p.pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM' && !refused.includes(p)) refused.push(p);
    }
  };
  for (const p of processes) signal(p, /postgres/i.test(p.name) ? 'SIGINT' : 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processes.some((p) => !refused.includes(p) && processState(p) === 'alive') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const p of processes) signal(p, 'SIGKILL');
  while (processes.some((p) => !refused.includes(p) && processState(p) === 'alive') && Date.now() < deadline + 5000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return refused;
}

/**
 * What a `pnpm start` of this checkout killed outright (`kill -9`, a crash, the machine's OOM killer) left running: its
 * services, worker, gateway and embedded Postgres and Redis run in their own process groups, so they outlive it. Its
 * `.data/running.json` lists each with its PID and start time; the next start stops the ones that are still those very
 * processes (a PID now used by another program is never signalled) before it checks its ports.
 */
import { killCommand, processState, stopProcesses, type TrackedProcess } from './process-identity';
import { readRunningRecord, removeRunningState, starterRuns, type RunningRecord } from './running-state';

const describe = (processes: TrackedProcess[]) => processes.map((p) => `${p.name} (pid ${p.pid})`).join(', ');

/** The processes a dead starter's record names that still run: `alive` verified, `unverifiable` without /proc. */
export function leftoversOf(record: RunningRecord): { alive: TrackedProcess[]; unverifiable: TrackedProcess[] } {
  const tracked = record.processes ?? [];
  const states = tracked.map((p) => [p, processState(p)] as const);
  return { alive: states.filter(([, s]) => s === 'alive').map(([p]) => p), unverifiable: states.filter(([, s]) => s === 'unknown').map(([p]) => p) };
}

/**
 * Stops what the last start of this checkout left running when that starter is gone (one line says what, one that it
 * is done), and removes its record. Answers one line to end the start with when it cannot: processes it may not signal,
 * or ones whose identity it cannot check (no /proc).
 */
export async function reclaimLeftovers(root: string): Promise<string | undefined> {
  const record = readRunningRecord(root);
  if (!record || starterRuns(record)) return undefined; // nothing recorded, or that start still runs (its ports are checked as usual)
  const { alive, unverifiable } = leftoversOf(record);
  if (unverifiable.length > 0) {
    return `A pnpm start of this checkout (pid ${record.pid}) was killed; these may still run, but their start times cannot be checked here: ${describe(unverifiable)}. Stop them with \`${killCommand(unverifiable)}\` and start again.`;
  }
  if (alive.length > 0) {
    console.log(`A pnpm start of this checkout (pid ${record.pid}) was killed or crashed and left ${alive.length} processes running: ${describe(alive)}. Stopping them.`);
    const refused = await stopProcesses(alive);
    if (refused.length > 0) return `Could not stop ${describe(refused)} (not permitted): stop them with \`sudo ${killCommand(refused)}\` and start again.`;
    const stuck = alive.filter((p) => processState(p) === 'alive');
    if (stuck.length > 0) return `${describe(stuck)} did not stop: stop them with \`kill -9 ${stuck.map((p) => p.pid).join(' ')}\` and start again.`;
    console.log('Stopped them; starting afresh.');
  }
  removeRunningState(root, record.pid);
  return undefined;
}

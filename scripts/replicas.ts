/**
 * `pnpm start --replicas <n>` (or REPLICAS=<n>): n copies of the gateway, each service and the worker. Replica i
 * (from 0) of each HTTP process listens on its base port + 10 × i (gateway 8080, 8090, …; certificate 3001, 3011, …;
 * mobility 3002, 3012, …; the gateway's internal port likewise), so up to 9 replicas never collide with each other.
 */
export const MAX_REPLICAS = 9;
export const REPLICA_PORT_STEP = 10;

/** The replica count from `--replicas <n>` / `--replicas=<n>` or REPLICAS (default 1), or one line on what is wrong. */
export function replicaCount(argv: string[], env: NodeJS.ProcessEnv): number | { failure: string } {
  let given = env.REPLICAS;
  let source = 'REPLICAS';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--replicas') [given, source] = [argv[i + 1], '--replicas'];
    else if (arg.startsWith('--replicas=')) [given, source] = [arg.slice('--replicas='.length), '--replicas'];
  }
  if (given === undefined || given === '') return 1;
  const count = Number(given);
  if (!/^\d+$/.test(given) || count < 1 || count > MAX_REPLICAS) {
    return { failure: `${source} must be a whole number from 1 to ${MAX_REPLICAS} (got ${JSON.stringify(given)}).` };
  }
  return count;
}

/** The port of replica `index` of a process whose first replica listens on `base`. */
export function replicaPort(base: string | number, index: number): string {
  return String(Number(base) + REPLICA_PORT_STEP * index);
}

/** `certificate`, `certificate-2`, …: the first replica keeps the plain name. */
export function replicaName(name: string, index: number): string {
  return index === 0 ? name : `${name}-${index + 1}`;
}

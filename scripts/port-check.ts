import { createServer } from 'node:net';
import { isPortFree } from '@platform/service-kit/listen';

export interface PortClaim {
  name: string;
  variable: string;
  port: number;
}


/**
 * One line naming the first port another program already holds, or undefined when all are free. Starting on a taken
 * port would let that program answer our health checks. `holder` names the program when the caller knows it (a start
 * of the same checkout still running): then the line says so and how to stop it.
 */
export async function describeTakenPort(claims: PortClaim[], holder: (port: number) => string | undefined = () => undefined): Promise<string | undefined> {
  for (const claim of claims) {
    if (!(await isPortFree(claim.port))) {
      const known = holder(claim.port);
      if (known) return `Port ${claim.port} (${claim.name}) is used by ${known}, or choose another port with ${claim.variable}.`;
      return `Port ${claim.port} (${claim.name}) is already in use by another program: stop it or choose another port with ${claim.variable}.`;
    }
  }
  return undefined;
}

/** `preferred` when nothing listens on it, else (or when it is undefined) a free port the system picks. */
export async function freePortPreferring(preferred: number | undefined): Promise<number> {
  if (preferred !== undefined && (await isPortFree(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

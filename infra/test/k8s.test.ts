import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { DEFAULT_SHUTDOWN_DEADLINE_MS } from '@platform/service-kit/shutdown';
import { parseConfig } from '@platform/service-kit/config';
import { gatewayConfigSchema } from '../../gateway/src/config';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { mobilityConfigSchema } from '../../services/mobility/src/config';

const root = path.resolve(__dirname, '../..');
const k8sDir = path.join(root, 'infra/k8s');

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string }; secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet: { path: string; port: string | number; scheme?: string };
}
interface Container {
  name: string;
  workingDir: string;
  command: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env: EnvVar[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: { cpu?: string } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    template: { spec: { containers: Container[]; terminationGracePeriodSeconds?: number } };
    ports: Array<{ port: number; targetPort: string | number }>;
    scaleTargetRef: { kind: string; name: string };
    selector: Record<string, unknown>;
  };
}

const manifests: Manifest[] = readdirSync(k8sDir)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(path.join(k8sDir, file), 'utf8')).map((doc) => doc.toJSON() as Manifest));

function find(kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return found;
}

const configMap = find('ConfigMap', 'platform-config').data!;
const secrets = find('Secret', 'platform-secrets').stringData!;

/** The variables a config schema reads: the keys of the object inside its transforms. */
function variablesOf(schema: unknown): string[] {
  let current = schema as { shape?: Record<string, unknown>; in?: unknown };
  while (!current.shape) current = current.in as typeof current;
  return Object.keys(current.shape);
}

const processes = [
  { name: 'gateway', schema: gatewayConfigSchema, entry: 'src/server.ts', http: true },
  { name: 'certificate', schema: certificateConfigSchema, entry: 'src/server.ts', http: true },
  { name: 'mobility', schema: mobilityConfigSchema, entry: 'src/server.ts', http: true },
  { name: 'worker', schema: mobilityConfigSchema, entry: 'src/worker.ts', http: false },
] as const;

function containerOf(name: string): Container {
  return find('Deployment', name).spec.template.spec.containers[0]!;
}

/** The environment the container would get, with ConfigMap and Secret references resolved. */
function resolvedEnv(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of container.env) {
    const ref = variable.valueFrom;
    const value = variable.value ?? (ref?.configMapKeyRef ? configMap[ref.configMapKeyRef.key] : ref?.secretKeyRef ? secrets[ref.secretKeyRef.key] : undefined);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

/** Names that hold credentials (GATEWAY_B_HASH_HEADER is only a header name). */
const SECRET_NAME = /SECRET|_KEY$|_HASH$|PASSWORD|DATABASE_URL/;

describe('infra/k8s manifests', () => {
  it.each(processes)('runs $name as its own Deployment from an entry point that exists', ({ name, entry }) => {
    const container = containerOf(name);
    expect(container.command.at(-1)).toBe(entry);
    const dir = container.workingDir.replace(/^\/app\//, '');
    expect(() => readFileSync(path.join(root, dir, entry))).not.toThrow();
  });

  it.each(processes)('gives $name only variables its config schema reads, and a valid configuration', ({ name, schema }) => {
    const container = containerOf(name);
    const known = variablesOf(schema);
    for (const variable of container.env) expect(known).toContain(variable.name);
    for (const variable of container.env) {
      if (variable.valueFrom?.configMapKeyRef) expect(Object.keys(configMap)).toContain(variable.valueFrom.configMapKeyRef.key);
      if (variable.valueFrom?.secretKeyRef) expect(Object.keys(secrets)).toContain(variable.valueFrom.secretKeyRef.key);
    }
    expect(() => parseConfig(schema, resolvedEnv(container))).not.toThrow();
  });

  it.each(processes)('takes $name secrets from the Secret, never from the ConfigMap or a literal', ({ name }) => {
    const container = containerOf(name);
    for (const variable of container.env.filter((v) => SECRET_NAME.test(v.name))) {
      expect(variable.valueFrom?.secretKeyRef?.name).toBe('platform-secrets');
    }
    if (name !== 'gateway') {
      expect(container.env.map((v) => v.name)).toEqual(expect.arrayContaining(['JWT_SECRET', 'DATABASE_URL']));
    }
    expect(Object.keys(configMap).filter((key) => SECRET_NAME.test(key))).toEqual([]);
  });

  it.each(processes.filter((p) => p.http))('exposes $name on the port its code defaults to, with /readyz and /healthz probes on it', ({ name, schema }) => {
    const container = containerOf(name);
    const port = (parseConfig(schema, { JWT_SECRET: 'x'.repeat(32) }) as { PORT: number }).PORT;
    const env = resolvedEnv(container);
    expect(env.PORT).toBe(String(port));
    expect(container.ports).toHaveLength(1);
    const [declared] = container.ports!;
    expect(declared!.containerPort).toBe(port);
    const scheme = env.TLS_CERT_FILE ? 'HTTPS' : undefined;
    for (const [probe, probePath] of [
      [container.readinessProbe, '/readyz'],
      [container.livenessProbe, '/healthz'],
    ] as const) {
      expect(probe!.httpGet.path).toBe(probePath);
      expect([declared!.name, declared!.containerPort]).toContain(probe!.httpGet.port);
      expect(probe!.httpGet.scheme).toBe(scheme);
    }
    const service = find('Service', name);
    expect([declared!.name, declared!.containerPort]).toContain(service.spec.ports[0]!.targetPort);
  });

  it.each(processes.filter((p) => p.http))('scales $name with a HorizontalPodAutoscaler on CPU requests', ({ name }) => {
    const hpa = find('HorizontalPodAutoscaler', name);
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name });
    expect(containerOf(name).resources?.requests?.cpu).toBeDefined();
  });

  it.each(processes)('gives $name more time to stop than its own shutdown deadline', ({ name }) => {
    const grace = find('Deployment', name).spec.template.spec.terminationGracePeriodSeconds ?? 30;
    expect(grace * 1000).toBeGreaterThan(DEFAULT_SHUTDOWN_DEADLINE_MS);
  });

  it('uses every ConfigMap key somewhere', () => {
    const used = new Set(processes.flatMap(({ name }) => containerOf(name).env.map((v) => v.valueFrom?.configMapKeyRef?.key)));
    expect(Object.keys(configMap).filter((key) => !used.has(key))).toEqual([]);
  });
});

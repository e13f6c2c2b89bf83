import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SHUTDOWN_DEADLINE_MS } from '@platform/service-kit/shutdown';
import { parseConfig } from '@platform/service-kit/config';
import { gatewayConfigSchema } from '../../gateway/src/config';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { mobilityConfigSchema } from '../../services/mobility/src/config';
import { variablesOf } from './helpers/config-variables';
import { loadManifests, root, selects, type Container, type Manifest, type PodTemplate } from './helpers/manifests';
import { egressAllowed, egressPoliciesOf, ingressAllowed, ingressPoliciesOf, type Destination, type Source } from './helpers/network-policy';

const manifests = loadManifests('infra/k8s');
const examples = loadManifests('infra/examples');

function find(kind: string, name: string, from: Manifest[] = manifests): Manifest {
  const found = from.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
}

const configMap = find('ConfigMap', 'platform-config').data!;
const exampleSecrets = find('Secret', 'platform-secrets', examples).stringData!;

/** The secrets each service refuses in production when shorter than 32 bytes or a placeholder (service-kit secret-strength). */
const CHECKED_SECRETS = ['JWT_SECRET', 'GATEWAY_A_SECRET_KEY', 'GATEWAY_B_SECRET_KEY', 'GATEWAY_B_SECRET_HASH', 'WEBHOOK_SECRET_KEY', 'TRACKING_TOKEN_SECRET', 'PIN_FINGERPRINT_SECRET', 'ISSUER_KEY_ENCRYPTION_KEY'];
/** The example Secret with every checked secret replaced by 32 random bytes, as an operator would create it. */
const strongSecrets = {
  ...exampleSecrets,
  ...Object.fromEntries(CHECKED_SECRETS.map((name) => [name, randomBytes(32).toString('base64')])),
  CREDENTIAL_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
};

/** Each workload, the compiled entry the image runs (`/app/<deploy>/dist/…`) and the source file it is built from. */
const workloads = [
  { kind: 'Deployment', name: 'gateway', schema: gatewayConfigSchema, command: 'node /app/gateway/dist/server.js', source: 'gateway/src/server.ts' },
  { kind: 'Deployment', name: 'certificate', schema: certificateConfigSchema, command: 'node --max-old-space-size=256 /app/certificate/dist/server.js', source: 'services/certificate/src/server.ts' },
  { kind: 'Deployment', name: 'mobility', schema: mobilityConfigSchema, command: 'node /app/mobility/dist/server.js', source: 'services/mobility/src/server.ts' },
  { kind: 'Deployment', name: 'worker', schema: mobilityConfigSchema, command: 'node /app/mobility/dist/worker.js', source: 'services/mobility/src/worker.ts' },
  { kind: 'Job', name: 'certificate-migrate', schema: certificateConfigSchema, command: 'node /app/certificate/dist/db/migrate.js', source: 'services/certificate/src/db/migrate.ts' },
  { kind: 'Job', name: 'mobility-migrate', schema: mobilityConfigSchema, command: 'node /app/mobility/dist/db/migrate.js', source: 'services/mobility/src/db/migrate.ts' },
] as const;
const deployments = workloads.filter((w) => w.kind === 'Deployment');
const services = [
  { name: 'certificate', schema: certificateConfigSchema },
  { name: 'mobility', schema: mobilityConfigSchema },
] as const;

function podOf(kind: string, name: string): PodTemplate {
  return find(kind, name).spec.template;
}

function containerOf(name: string, kind = 'Deployment'): Container {
  return podOf(kind, name).spec.containers[0]!;
}

function portNamed(container: Container, name: string): number {
  const port = container.ports?.find((p) => p.name === name);
  if (!port) throw new Error(`no port ${name} on ${container.name}`);
  return port.containerPort;
}

/** The environment the container would get, with ConfigMap and Secret references resolved. */
function resolvedEnv(container: Container, secrets: Record<string, string> = strongSecrets): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of container.env) {
    const ref = variable.valueFrom;
    const value = variable.value ?? (ref?.configMapKeyRef ? configMap[ref.configMapKeyRef.key] : ref?.secretKeyRef ? secrets[ref.secretKeyRef.key] : undefined);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

function defaultPort(schema: Parameters<typeof parseConfig>[0]): number {
  return (parseConfig(schema, { JWT_SECRET: 'x'.repeat(32) }) as { PORT: number }).PORT;
}

/** Names that hold credentials (GATEWAY_B_HASH_HEADER is only a header name; REDIS_URL carries the Redis password). */
const SECRET_NAME = /SECRET|_KEY$|_HASH$|PASSWORD|DATABASE_URL|REDIS_URL/;

describe('infra/k8s secrets', () => {
  it('holds no Secret, so `kubectl apply -f infra/k8s/` never replaces real secrets with placeholders', () => {
    expect(manifests.filter((m) => m.kind === 'Secret').map((m) => m.metadata.name)).toEqual([]);
    const files = readdirSync(path.join(root, 'infra/k8s'), { recursive: true, encoding: 'utf8' });
    for (const file of files) expect(readFileSync(path.join(root, 'infra/k8s', file), 'utf8')).not.toMatch(/^kind:\s*Secret\s*$/m);
  });

  it('keeps the example Secrets in infra/examples, with every key a workload reads', () => {
    expect(examples.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual(['Secret/gateway-tls', 'Secret/platform-secrets']);
    const read = workloads.flatMap(({ kind, name }) => podOf(kind, name).spec.containers.flatMap((c) => c.env.map((v) => v.valueFrom?.secretKeyRef?.key)));
    for (const key of read.filter((k) => k !== undefined)) expect(Object.keys(exampleSecrets)).toContain(key);
  });

  it.each(workloads.filter((w) => w.name !== 'gateway'))('refuses to start $name in production with any example secret, naming it', ({ kind, name, schema }) => {
    const container = containerOf(name, kind);
    expect(resolvedEnv(container).NODE_ENV).toBe('production');
    const checked = container.env.map((v) => v.name).filter((variable) => CHECKED_SECRETS.includes(variable));
    expect(checked).toContain('JWT_SECRET');
    for (const variable of checked) {
      const env = { ...resolvedEnv(container), [variable]: exampleSecrets[variable]! };
      expect(() => parseConfig(schema, env)).toThrow(new RegExp(`^Invalid environment variable ${variable}: a placeholder from the repository is refused when NODE_ENV=production`));
    }
    expect(() => parseConfig(schema, resolvedEnv(container))).not.toThrow();
  });

  it('hands every process its Redis URL from the Secret, with a password in it (Redis requires one)', () => {
    const readers = workloads.filter(({ kind, name }) => containerOf(name, kind).env.some((v) => v.name === 'REDIS_URL'));
    expect(readers.map((w) => w.name).sort()).toEqual(['certificate', 'gateway', 'mobility', 'worker']);
    for (const { kind, name } of readers) {
      expect(containerOf(name, kind).env.find((v) => v.name === 'REDIS_URL')!.valueFrom?.secretKeyRef).toEqual({ name: 'platform-secrets', key: 'REDIS_URL' });
    }
    expect(configMap.REDIS_URL).toBeUndefined();
    expect(new URL(exampleSecrets.REDIS_URL!).password).not.toBe('');
  });

  it('checks every production secret somewhere', () => {
    const checked = new Set(workloads.flatMap(({ kind, name }) => containerOf(name, kind).env.map((v) => v.name)));
    expect(CHECKED_SECRETS.filter((name) => !checked.has(name))).toEqual([]);
  });
});

describe('infra/k8s workloads', () => {
  it.each(workloads)('runs $name ($kind) as `$command` from /app, built from a source file that exists', ({ kind, name, command, source }) => {
    const container = containerOf(name, kind);
    expect(container.command.join(' ')).toBe(command);
    expect(container.workingDir).toBe('/app');
    expect(existsSync(path.join(root, source))).toBe(true);
  });

  it("gives the certificate service a heap of at most half its memory limit (Node would size it from the machine's memory)", () => {
    const container = containerOf('certificate', 'Deployment') as unknown as { command: string[]; resources: { limits: { memory: string } } };
    const heapMb = Number(/^--max-old-space-size=(\d+)$/.exec(container.command.find((arg) => arg.startsWith('--max-old-space-size=')) ?? '')?.[1]);
    const limitMi = Number(/^(\d+)Mi$/.exec(container.resources.limits.memory)?.[1]);
    expect(heapMb).toBeGreaterThan(0);
    expect(heapMb).toBeLessThanOrEqual(limitMi / 2);
  });

  it('runs migrations only in the Jobs: no Deployment has an initContainer', () => {
    for (const { name } of deployments) expect(podOf('Deployment', name).spec.initContainers).toBeUndefined();
    expect(manifests.filter((m) => m.kind === 'Job').map((m) => m.metadata.name).sort()).toEqual(['certificate-migrate', 'mobility-migrate']);
  });

  it('pins one released image tag everywhere, never `latest`', () => {
    const images = manifests.filter((m) => m.spec?.template).flatMap((m) => m.spec.template.spec.containers.map((c) => c.image));
    expect(images.length).toBeGreaterThanOrEqual(workloads.length);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toMatch(/^partner-platform:\d+\.\d+\.\d+$/);
  });

  it.each(workloads)('gives $name only variables its config schema reads, and a valid configuration', ({ kind, name, schema }) => {
    const container = containerOf(name, kind);
    const known = variablesOf(schema);
    for (const variable of container.env) expect(known).toContain(variable.name);
    for (const variable of container.env) {
      if (variable.valueFrom?.configMapKeyRef) expect(Object.keys(configMap)).toContain(variable.valueFrom.configMapKeyRef.key);
    }
    expect(() => parseConfig(schema, resolvedEnv(container))).not.toThrow();
  });

  it.each(workloads)('takes $name secrets from the Secret, never from the ConfigMap or a literal', ({ kind, name }) => {
    const container = containerOf(name, kind);
    for (const variable of container.env.filter((v) => SECRET_NAME.test(v.name))) {
      expect(variable.valueFrom?.secretKeyRef?.name).toBe('platform-secrets');
    }
    if (name !== 'gateway') {
      expect(container.env.map((v) => v.name)).toEqual(expect.arrayContaining(['JWT_SECRET', 'DATABASE_URL']));
    }
    expect(Object.keys(configMap).filter((key) => SECRET_NAME.test(key))).toEqual([]);
  });

  it('uses every ConfigMap key somewhere', () => {
    const used = new Set(workloads.flatMap(({ kind, name }) => containerOf(name, kind).env.map((v) => v.valueFrom?.configMapKeyRef?.key)));
    expect(Object.keys(configMap).filter((key) => !used.has(key))).toEqual([]);
  });
});

describe('infra/k8s Pod Security "restricted"', () => {
  const pods = manifests.filter((m) => m.spec?.template).map((m) => ({ name: `${m.kind}/${m.metadata.name}`, pod: m.spec.template }));

  it('covers every workload', () => {
    expect(pods.map((p) => p.name).sort()).toEqual(workloads.map((w) => `${w.kind}/${w.name}`).sort());
  });

  it.each(pods)('$name runs as non-root with the RuntimeDefault seccomp profile and no host namespaces', ({ pod }) => {
    expect(pod.spec.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.spec.securityContext?.runAsUser).not.toBe(0);
    expect(pod.spec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    expect([pod.spec.hostNetwork, pod.spec.hostPID, pod.spec.hostIPC].filter(Boolean)).toEqual([]);
    expect((pod.spec.volumes ?? []).filter((v) => v.hostPath)).toEqual([]);
  });

  it.each(pods)('$name drops every capability, never escalates and has a read-only root file system with an emptyDir /tmp', ({ pod }) => {
    for (const container of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
      const context = container.securityContext;
      expect(context?.allowPrivilegeEscalation).toBe(false);
      expect(context?.privileged).not.toBe(true);
      expect(context?.capabilities?.drop).toEqual(['ALL']);
      expect(context?.capabilities?.add).toBeUndefined();
      expect(context?.runAsNonRoot).not.toBe(false);
      expect(context?.readOnlyRootFilesystem).toBe(true);
      const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(pod.spec.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
    }
  });
});

describe('infra/k8s availability', () => {
  it.each(deployments)('keeps at least one $name pod through voluntary disruptions (PodDisruptionBudget)', ({ name }) => {
    const deployment = find('Deployment', name);
    const budget = find('PodDisruptionBudget', name);
    expect(selects(budget.spec.selector, deployment.spec.template.metadata.labels)).toBe(true);
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
    // Below the replica count, so a node drain can still proceed.
    expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas!);
  });

  it.each(deployments)('gives $name more time to stop than its own shutdown deadline', ({ name }) => {
    const grace = podOf('Deployment', name).spec.terminationGracePeriodSeconds ?? 30;
    expect(grace * 1000).toBeGreaterThan(DEFAULT_SHUTDOWN_DEADLINE_MS);
  });

  it.each(services)('scales $name with a HorizontalPodAutoscaler on CPU requests', ({ name }) => {
    const hpa = find('HorizontalPodAutoscaler', name);
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name });
    expect(containerOf(name).resources?.requests?.cpu).toBeDefined();
  });

  it('scales the gateway with a HorizontalPodAutoscaler on CPU requests', () => {
    expect(find('HorizontalPodAutoscaler', 'gateway').spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
    expect(containerOf('gateway').resources?.requests?.cpu).toBeDefined();
  });
});

describe('infra/k8s probes and metrics', () => {
  it.each(services)('exposes $name on the port its code defaults to, with /readyz, /healthz and /metrics on it', ({ name, schema }) => {
    const container = containerOf(name);
    const port = defaultPort(schema);
    expect(resolvedEnv(container).PORT).toBe(String(port));
    expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
    expect(container.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(find('Service', name).spec.ports.map((p) => p.targetPort)).toEqual(['http']);
    expect(podOf('Deployment', name).metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
  });

  it('checks the gateway alive with /healthz on its public HTTPS port, and ready with /readyz on METRICS_PORT (9464)', () => {
    const container = containerOf('gateway');
    const env = resolvedEnv(container);
    expect(env.PORT).toBe(String(defaultPort(gatewayConfigSchema)));
    expect(env.TLS_CERT_FILE).toBeDefined();
    expect(portNamed(container, 'https')).toBe(defaultPort(gatewayConfigSchema));
    expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'https', scheme: 'HTTPS' });
    // The gateway's METRICS_PORT default: an internal plain-HTTP listener for /readyz and /metrics.
    expect(portNamed(container, 'metrics')).toBe(9464);
    expect(container.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(podOf('Deployment', 'gateway').metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464', 'prometheus.io/path': '/metrics' });
    // Only the public port is behind the LoadBalancer.
    expect(find('Service', 'gateway').spec.ports.map((p) => p.targetPort)).toEqual(['https']);
  });

  it('gives the worker a WORKER_METRICS_PORT with /healthz probes and a Prometheus scrape on it', () => {
    const container = containerOf('worker');
    const port = portNamed(container, 'metrics');
    const config = parseConfig(mobilityConfigSchema, resolvedEnv(container));
    expect(config.WORKER_METRICS_PORT).toBe(port);
    expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(container.readinessProbe!.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(podOf('Deployment', 'worker').metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
  });
});

describe('infra/k8s NetworkPolicy', () => {
  const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
  const pod = (name: string) => podOf('Deployment', name);
  const from = (name: string): Source => ({ namespace: 'platform', labels: pod(name).metadata.labels });
  const stranger: Source = { namespace: 'platform', labels: { app: 'something-else' } };
  const otherNamespace: Source = { namespace: 'default', labels: pod('gateway').metadata.labels };

  it.each(workloads)('isolates $name ($kind) for ingress', ({ kind, name }) => {
    expect(ingressPoliciesOf(policies, podOf(kind, name)).length).toBeGreaterThan(0);
  });

  it("lets anyone reach the gateway's public port, and nothing else from outside", () => {
    expect(ingressAllowed(policies, pod('gateway'), 'https', 'internet')).toBe(true);
    expect(ingressAllowed(policies, pod('gateway'), 'metrics', 'internet')).toBe(false);
    for (const name of ['certificate', 'mobility']) expect(ingressAllowed(policies, pod(name), 'http', 'internet')).toBe(false);
    expect(ingressAllowed(policies, pod('worker'), 'metrics', 'internet')).toBe(false);
  });

  it.each(['certificate', 'mobility'])('lets only the gateway and the worker reach %s', (name) => {
    expect(ingressAllowed(policies, pod(name), 'http', from('gateway'))).toBe(true);
    expect(ingressAllowed(policies, pod(name), 'http', from('worker'))).toBe(true);
    for (const source of [from(name === 'certificate' ? 'mobility' : 'certificate'), stranger, otherNamespace]) {
      expect(ingressAllowed(policies, pod(name), 'http', source)).toBe(false);
    }
  });

  it.each(deployments)("lets Prometheus in the monitoring namespace scrape $name's metrics port", ({ name }) => {
    const template = pod(name);
    const scrapePort = Number(template.metadata.annotations!['prometheus.io/port']);
    const portName = template.spec.containers[0]!.ports!.find((p) => p.containerPort === scrapePort)!.name;
    expect(ingressAllowed(policies, template, portName, { namespace: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } })).toBe(true);
    expect(ingressAllowed(policies, template, portName, stranger)).toBe(name === 'gateway' && portName === 'https');
  });

  describe('egress', () => {
    const kubeDns: Destination = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
    const to = (name: string): Destination => ({ namespace: 'platform', labels: pod(name).metadata.labels });
    /** Postgres and Redis are the operator's (managed, or servers outside the manifests): reached by their port. */
    const postgres = { ip: '10.20.0.5' };
    const redis = { ip: '10.20.0.6' };
    const internet = [{ ip: '93.184.216.34' }, { ip: '2606:2800:220:1:248:1893:25c8:1946' }];
    /** The cluster (pods, the API server's Service address), private, shared, loopback and link-local addresses, IPv4 and IPv6. */
    const forbidden = ['10.0.0.1', '10.96.0.1', '172.16.0.10', '172.31.255.254', '192.168.1.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '169.254.0.1', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '::1'].map((ip) => ({ ip }));
    const allPods = workloads.map(({ kind, name }) => ({ kind, name, template: podOf(kind, name) }));

    it.each(workloads)('isolates $name ($kind) for egress: nothing leaves it unless a rule allows it', ({ kind, name }) => {
      expect(egressPoliciesOf(policies, podOf(kind, name)).length).toBeGreaterThan(0);
      expect(egressAllowed(policies, podOf(kind, name), { ip: '10.0.0.1' }, 80)).toBe(false);
    });

    it.each(allPods)('lets $name resolve names with kube-dns (UDP and TCP 53)', ({ name, template }) => {
      expect(egressAllowed(policies, template, kubeDns, 53, 'UDP')).toBe(true);
      expect(egressAllowed(policies, template, kubeDns, 53, 'TCP')).toBe(true);
      // The worker reaches the whole internet (webhook URLs on any port); nothing else asks another DNS server.
      expect(egressAllowed(policies, template, { ip: '8.8.8.8' }, 53, 'UDP')).toBe(name === 'worker');
      expect(egressAllowed(policies, template, { namespace: 'kube-system', labels: { app: 'something-else' } }, 53, 'UDP')).toBe(false);
    });

    it('lets the gateway reach the certificate and mobility services and Redis only', () => {
      const gateway = pod('gateway');
      expect(egressAllowed(policies, gateway, to('certificate'), 3001)).toBe(true);
      expect(egressAllowed(policies, gateway, to('mobility'), 3002)).toBe(true);
      expect(egressAllowed(policies, gateway, redis, 6379)).toBe(true);
      expect(egressAllowed(policies, gateway, postgres, 5432)).toBe(false);
      expect(egressAllowed(policies, gateway, to('worker'), 9465)).toBe(false);
      expect(egressAllowed(policies, gateway, to('certificate'), 3002)).toBe(false);
      for (const destination of [...internet, ...forbidden]) expect(egressAllowed(policies, gateway, destination, 443)).toBe(false);
    });

    it.each(['certificate', 'mobility'])('lets %s reach Postgres and Redis, and no other pod', (name) => {
      expect(egressAllowed(policies, pod(name), postgres, 5432)).toBe(true);
      expect(egressAllowed(policies, pod(name), redis, 6379)).toBe(true);
      for (const other of ['gateway', 'certificate', 'mobility']) expect(egressAllowed(policies, pod(name), to(other), other === 'gateway' ? 8080 : 3001)).toBe(false);
      for (const destination of forbidden) for (const port of [80, 443, 587, 8080]) expect(egressAllowed(policies, pod(name), destination, port)).toBe(false);
    });

    it('lets the mobility API reach nothing else: its egress rules are DNS, Postgres and Redis', () => {
      const rules = egressPoliciesOf(policies, pod('mobility')).flatMap((policy) => policy.spec.egress ?? []);
      const ports = rules.flatMap((rule) => (rule.ports ?? [{ port: 'any' }]).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`));
      expect([...new Set(ports)].sort()).toEqual(['TCP/53', 'TCP/5432', 'TCP/6379', 'UDP/53']);
      for (const destination of internet) expect(egressAllowed(policies, pod('mobility'), destination, 443)).toBe(false);
    });

    it('lets the certificate service call payment gateways (HTTPS) and its SMTP relay on the internet, nothing else there', () => {
      const certificate = pod('certificate');
      for (const destination of internet) {
        for (const port of [443, 587, 465]) expect(egressAllowed(policies, certificate, destination, port)).toBe(true);
        for (const port of [80, 25, 8443, 22]) expect(egressAllowed(policies, certificate, destination, port)).toBe(false);
      }
      const rules = egressPoliciesOf(policies, certificate).flatMap((policy) => policy.spec.egress ?? []);
      const ports = rules.flatMap((rule) => (rule.ports ?? [{ port: 'any' }]).map((p) => `${p.protocol ?? 'TCP'}/${p.port}`));
      expect([...new Set(ports)].sort()).toEqual(['TCP/443', 'TCP/465', 'TCP/53', 'TCP/5432', 'TCP/587', 'TCP/6379', 'UDP/53'].sort());
    });

    it('lets the worker deliver webhooks anywhere on the internet, on any port, and reach Postgres and Redis', () => {
      const worker = pod('worker');
      for (const destination of internet) for (const port of [443, 8443, 80]) expect(egressAllowed(policies, worker, destination, port)).toBe(true);
      expect(egressAllowed(policies, worker, postgres, 5432)).toBe(true);
      expect(egressAllowed(policies, worker, redis, 6379)).toBe(true);
    });

    it('keeps the worker out of the cluster, private, shared, loopback and metadata ranges (IPv4 and IPv6)', () => {
      const worker = pod('worker');
      for (const destination of forbidden) for (const port of [80, 443, 8443, 10250, 2379]) expect(egressAllowed(policies, worker, destination, port)).toBe(false);
      for (const name of ['gateway', 'certificate', 'mobility']) {
        for (const port of [3001, 3002, 8080, 9464]) expect(egressAllowed(policies, worker, to(name), port)).toBe(false);
      }
      // Every internet rule that selects the worker excludes each of those ranges.
      const blocks = egressPoliciesOf(policies, worker).flatMap((policy) => (policy.spec.egress ?? []).flatMap((rule) => rule.to ?? []).flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : [])));
      expect(blocks.map((block) => block.cidr).sort()).toEqual(['0.0.0.0/0', '::/0']);
      const excepted = blocks.flatMap((block) => block.except ?? []);
      expect(excepted).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', 'fc00::/7', 'fe80::/10', '::1/128']));
    });

    it.each(['certificate-migrate', 'mobility-migrate'])('lets the %s Job reach Postgres only', (name) => {
      const job = podOf('Job', name);
      expect(egressAllowed(policies, job, postgres, 5432)).toBe(true);
      expect(egressAllowed(policies, job, redis, 6379)).toBe(false);
      for (const destination of [...internet, ...forbidden]) expect(egressAllowed(policies, job, destination, 443)).toBe(false);
      for (const name of ['gateway', 'certificate', 'mobility']) expect(egressAllowed(policies, job, to(name), 3001)).toBe(false);
    });
  });
});

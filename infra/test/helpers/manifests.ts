import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const root = path.resolve(__dirname, '../../..');

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: { name: string; key: string }; secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
export interface Probe {
  httpGet: { path: string; port: string | number; scheme?: string };
}
export interface Container {
  name: string;
  image: string;
  workingDir: string;
  command: string[];
  ports?: Array<{ name: string; containerPort: number }>;
  env: EnvVar[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: { cpu?: string } };
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    privileged?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
    seccompProfile?: { type: string };
  };
}
export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  volumes?: Array<{ name: string; emptyDir?: object; hostPath?: object; secret?: object }>;
}
export interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}
export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface NetworkPolicyPort {
  port?: string | number;
  protocol?: string;
}
export interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: {
    replicas?: number;
    template: PodTemplate;
    ports: Array<{ port: number; targetPort: string | number }>;
    scaleTargetRef: { kind: string; name: string };
    selector: LabelSelector & Record<string, unknown>;
    minAvailable?: number;
    podSelector: LabelSelector;
    policyTypes?: string[];
    ingress?: Array<{ from?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }>;
    egress?: Array<{ to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }>;
  };
}

/** Every document of every YAML file in a folder of this repository (sub-folders included). */
export function loadManifests(folder: string): Manifest[] {
  const dir = path.join(root, folder);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.ya?ml$/.test(file))
    .flatMap((file) => parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((doc) => doc.toJSON() as Manifest))
    .filter((manifest) => manifest !== null);
}

export function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return labels[key] !== undefined && values.includes(labels[key]);
    if (operator === 'NotIn') return labels[key] === undefined || !values.includes(labels[key]);
    if (operator === 'Exists') return key in labels;
    return !(key in labels);
  });
  return byLabel && byExpression;
}

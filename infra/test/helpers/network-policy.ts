import { BlockList, isIP } from 'node:net';
import { selects, type Manifest, type NetworkPolicyPeer, type PodTemplate } from './manifests';

/** Where a connection comes from: a pod in a namespace, or the internet. */
export type Source = { namespace: string; labels: Record<string, string> } | 'internet';

function peerMatches(peer: NetworkPolicyPeer, source: Source): boolean {
  if (peer.ipBlock) return source === 'internet' && peer.ipBlock.cidr === '0.0.0.0/0';
  if (source === 'internet') return false;
  // A podSelector alone means pods of the policy's own namespace, where the platform runs.
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': source.namespace })
    : source.namespace === 'platform';
  return namespaceOk && (!peer.podSelector || selects(peer.podSelector, source.labels));
}

/** The policies that isolate a pod for ingress. */
export function ingressPoliciesOf(policies: Manifest[], pod: PodTemplate): Manifest[] {
  return policies.filter(
    (policy) => selects(policy.spec.podSelector, pod.metadata.labels) && (policy.spec.policyTypes ?? ['Ingress']).includes('Ingress'),
  );
}

/** Whether Kubernetes NetworkPolicy semantics let `source` open a connection to the pod's named container port. */
export function ingressAllowed(policies: Manifest[], pod: PodTemplate, portName: string, source: Source): boolean {
  const isolating = ingressPoliciesOf(policies, pod);
  if (isolating.length === 0) return true;
  const port = pod.spec.containers.flatMap((c) => c.ports ?? []).find((p) => p.name === portName);
  if (!port) throw new Error(`no port ${portName} on ${JSON.stringify(pod.metadata.labels)}`);
  return isolating.some((policy) =>
    (policy.spec.ingress ?? []).some(
      (rule) =>
        (!rule.ports || rule.ports.some((p) => p.port === port.name || p.port === port.containerPort)) &&
        (!rule.from || rule.from.some((peer) => peerMatches(peer, source))),
    ),
  );
}

/** Where a connection goes: a pod in a namespace, or an IP address outside the cluster's pods (IPv4 or IPv6). */
export type Destination = { namespace: string; labels: Record<string, string> } | { ip: string };
export type Protocol = 'TCP' | 'UDP';

/** The policies that isolate a pod for egress. */
export function egressPoliciesOf(policies: Manifest[], pod: PodTemplate): Manifest[] {
  return policies.filter((policy) => selects(policy.spec.podSelector, pod.metadata.labels) && (policy.spec.policyTypes ?? []).includes('Egress'));
}

function family(address: string): 'ipv4' | 'ipv6' {
  const version = isIP(address.split('/')[0]!);
  if (version === 0) throw new Error(`not an IP address: ${address}`);
  return version === 4 ? 'ipv4' : 'ipv6';
}

function inCidr(ip: string, cidr: string): boolean {
  const [network, prefix] = cidr.split('/');
  if (family(network!) !== family(ip)) return false;
  const block = new BlockList();
  block.addSubnet(network!, Number(prefix), family(network!));
  return block.check(ip, family(ip));
}

function peerReaches(peer: NetworkPolicyPeer, destination: Destination): boolean {
  // An ipBlock is for addresses outside the cluster's pods; a pod is matched by the selectors only.
  if ('ip' in destination) return !!peer.ipBlock && inCidr(destination.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(destination.ip, cidr));
  if (peer.ipBlock) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': destination.namespace })
    : destination.namespace === 'platform';
  return namespaceOk && (!peer.podSelector || selects(peer.podSelector, destination.labels));
}

/** Whether Kubernetes NetworkPolicy semantics let the pod open a connection to `destination` on a numbered port. */
export function egressAllowed(policies: Manifest[], pod: PodTemplate, destination: Destination, port: number, protocol: Protocol = 'TCP'): boolean {
  const isolating = egressPoliciesOf(policies, pod);
  if (isolating.length === 0) return true;
  return isolating.some((policy) =>
    (policy.spec.egress ?? []).some(
      (rule) =>
        (!rule.ports || rule.ports.some((p) => (p.protocol ?? 'TCP') === protocol && (p.port === undefined || p.port === port))) &&
        (!rule.to || rule.to.some((peer) => peerReaches(peer, destination))),
    ),
  );
}

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

import { createHash } from 'node:crypto';

/**
 * The member's cluster pod CIDR, a /16 under 10.128.0.0/9 picked from a hash of its name, so two members of
 * one fleet hand out different pod IPs (as separate clusters do) and a member keeps its range across restarts.
 * 10.0.x (node addresses) and 10.96.x (Service IPs) lie outside that half, so they never collide.
 */
export function memberPodCidr(memberName: string): string {
  const second = 128 + (createHash('sha256').update(memberName).digest().readUInt16BE(0) % 128);
  return `10.${second}.0.0/16`;
}

/** The /24 of a /16 cluster CIDR given to the node at `index`, as the node IPAM controller assigns them. */
export function nodePodCidr(clusterCidr: string, index: number): string {
  const [a, b] = clusterCidr.split('/')[0]!.split('.');
  return `${a}.${b}.${index % 256}.0/24`;
}

import { matchLabelSelector } from '../../labels/matchLabelSelector.ts';
import type { KubeObject } from '../types.ts';
import { quantityNumber } from '../../quantities/parseQuantity.ts';

const parseQuantity = (value: unknown): number => quantityNumber(value) ?? 0;

// Node filters shared by the scheduler and the DaemonSet controller, after kube-scheduler's NodeAffinity,
// TaintToleration and NodeResourcesFit plugins.

export function tolerates(tolerations: any[], taint: any): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

/** Why a pod cannot go on a node ignoring resources, or undefined when it can. */
export function nodeRejects(
  pod: KubeObject,
  node: KubeObject,
  options: { ignoreUnschedulable?: boolean } = {},
): string | undefined {
  const spec = pod.spec ?? {};
  if (!options.ignoreUnschedulable && node.spec?.unschedulable) return 'node(s) were unschedulable';
  // kube-scheduler's filter order: TaintToleration before NodeAffinity, and a node reports its first failure only.
  const blocking = (node.spec?.taints ?? []).filter((t: any) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  for (const taint of blocking) {
    if (!tolerates(spec.tolerations ?? [], taint))
      return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  }
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {}))
    if (labels[k] !== v) return "node(s) didn't match Pod's node affinity/selector";
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (
    Array.isArray(terms) &&
    terms.length > 0 &&
    !terms.some((term: any) => matchLabelSelector({ matchExpressions: term.matchExpressions ?? [] }, labels))
  ) {
    return "node(s) didn't match Pod's node affinity/selector";
  }
  return undefined;
}

/** CPU in millicores and memory in bytes a pod asks for: requests, else limits (which default requests). */
export function podRequests(pod: KubeObject): { cpu: number; memory: number } {
  const sum = { cpu: 0, memory: 0 };
  for (const c of pod.spec?.containers ?? []) {
    const r = c.resources?.requests ?? c.resources?.limits ?? {};
    sum.cpu += parseQuantity(r.cpu) * 1000;
    sum.memory += parseQuantity(r.memory);
  }
  for (const c of pod.spec?.initContainers ?? []) {
    const r = c.resources?.requests ?? c.resources?.limits ?? {};
    sum.cpu = Math.max(sum.cpu, parseQuantity(r.cpu) * 1000);
    sum.memory = Math.max(sum.memory, parseQuantity(r.memory));
  }
  return sum;
}

export function nodeAllocatable(node: KubeObject): { cpu: number; memory: number; pods: number } {
  const a = node.status?.allocatable ?? node.status?.capacity ?? {};
  return { cpu: parseQuantity(a.cpu) * 1000, memory: parseQuantity(a.memory), pods: parseQuantity(a.pods) };
}

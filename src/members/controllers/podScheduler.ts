import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { nodeAllocatable, nodeRejects, podRequests } from './nodeFit.ts';
import { isTerminal, PODS, setPodCondition, statusChanged } from './workloadPods.ts';
import { CLAIMS, mountedClaims } from './volumeClaimController.ts';

const NODES = '/nodes';

/**
 * Binds pending pods to nodes like kube-scheduler's default profile, reduced to what a simulation needs:
 * filter (selector, affinity, taints, CPU/memory/pod-count fit), then prefer the least allocated node and
 * spread a controller's pods. A pod that fits nowhere stays Pending with PodScheduled=False/Unschedulable
 * and the same message shape the real scheduler writes.
 */
export function podScheduler(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function usage(nodeName: string): { cpu: number; memory: number; pods: number; byOwner: Map<string, number> } {
    const used = { cpu: 0, memory: 0, pods: 0, byOwner: new Map<string, number>() };
    for (const pod of store.list(PODS)) {
      if (pod.spec?.nodeName !== nodeName || isTerminal(pod)) continue;
      const r = podRequests(pod);
      used.cpu += r.cpu;
      used.memory += r.memory;
      used.pods += 1;
      const owner = pod.metadata.ownerReferences?.[0]?.uid;
      if (owner) used.byOwner.set(owner, (used.byOwner.get(owner) ?? 0) + 1);
    }
    return used;
  }

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const pod = store.get(PODS, namespace, name);
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp || isTerminal(pod)) return;
    const nodes = store.list(NODES);
    const claimProblem = unboundClaim(pod);
    if (claimProblem) {
      unschedulable(
        pod,
        `${nodesAvailable(nodes.length, [claimProblem])} preemption: ${nodesAvailable(nodes.length, [`${nodes.length} Preemption is not helpful for scheduling`])}`,
      );
      return;
    }
    const want = podRequests(pod);
    const reasons = new Map<string, number>();
    const reject = (reason: string) => reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    // Preemption's verdict per node: evicting pods cannot help where a filter failed UnschedulableAndUnresolvable
    // (node affinity/selector, taints, unschedulable), only where resources ran out and no lower-priority pod is there.
    let unresolvable = 0;
    const candidates: { node: KubeObject; score: number; siblings: number; pods: number }[] = [];
    for (const node of nodes) {
      const why = nodeRejects(pod, node);
      if (why) {
        reject(why);
        unresolvable++;
        continue;
      }
      const cap = nodeAllocatable(node);
      const used = usage(node.metadata.name!);
      if (used.pods + 1 > cap.pods) reject('Too many pods');
      else if (used.cpu + want.cpu > cap.cpu) reject('Insufficient cpu');
      else if (used.memory + want.memory > cap.memory) reject('Insufficient memory');
      else {
        const free =
          ((cap.cpu - used.cpu - want.cpu) / (cap.cpu || 1) +
            (cap.memory - used.memory - want.memory) / (cap.memory || 1)) /
          2;
        const owner = pod.metadata.ownerReferences?.[0]?.uid;
        candidates.push({ node, score: free, siblings: owner ? (used.byOwner.get(owner) ?? 0) : 0, pods: used.pods });
      }
    }
    const podType = registry.byResourceKey(PODS)!;
    const now = deps.now();
    if (candidates.length === 0) {
      const detail = [...reasons].map(([reason, n]) => `${n} ${reason}`).sort();
      unschedulable(
        pod,
        `${nodesAvailable(nodes.length, detail)} preemption: ${preemptionVerdict(nodes.length, unresolvable)}`,
      );
      return;
    }
    candidates.sort(
      (a, b) =>
        a.siblings - b.siblings ||
        b.score - a.score ||
        a.pods - b.pods ||
        a.node.metadata.name!.localeCompare(b.node.metadata.name!),
    );
    const chosen = candidates[0]!.node;
    const next = structuredClone(pod);
    next.spec.nodeName = chosen.metadata.name;
    next.status = {
      ...(next.status ?? {}),
      phase: 'Pending',
      conditions: setPodCondition(pod.status?.conditions, 'PodScheduled', 'True', '', '', now),
    };
    store.update(podType, next);
  }

  /** The pod stays Pending, PodScheduled=False/Unschedulable with kube-scheduler's message. */
  function unschedulable(pod: KubeObject, message: string): void {
    const status = {
      ...(pod.status ?? {}),
      phase: 'Pending',
      conditions: setPodCondition(
        pod.status?.conditions,
        'PodScheduled',
        'False',
        'Unschedulable',
        message,
        deps.now(),
      ),
    };
    if (statusChanged(pod, status)) store.update(registry.byResourceKey(PODS)!, { ...structuredClone(pod), status });
  }

  /** The volume binding plugin's PreFilter: every claim the pod mounts exists and is bound. */
  function unboundClaim(pod: KubeObject): string | undefined {
    let unbound = false;
    for (const claimName of mountedClaims(pod)) {
      const claim = store.get(CLAIMS, pod.metadata.namespace, claimName);
      if (!claim || claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${claimName}" not found`;
      if (claim.status?.phase !== 'Bound') unbound = true;
    }
    return unbound ? 'pod has unbound immediate PersistentVolumeClaims' : undefined;
  }

  const unscheduled = () =>
    store
      .list(PODS)
      .filter((p) => !p.spec?.nodeName && !isTerminal(p))
      .map((p) => keyOf(p.metadata.namespace, p.metadata.name!));

  return {
    name: 'scheduler',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === NODES) return unscheduled();
      // A claim made or bound may let its pods be placed.
      if (event.resource === CLAIMS && event.type !== 'DELETED')
        return unscheduled().filter((key) => splitKey(key)[0] === o.metadata.namespace);
      if (event.resource !== PODS) return [];
      // A pod leaving a node (or finishing) frees capacity for every pending pod.
      if (event.type === 'DELETED' || (event.previous && !isTerminal(event.previous) && isTerminal(o)))
        return o.spec?.nodeName ? unscheduled() : [];
      return o.spec?.nodeName ? [] : [keyOf(o.metadata.namespace, o.metadata.name!)];
    },
    reconcile,
    initialKeys: unscheduled,
  };
}

/** The preemption half of an Unschedulable message: FitError's histogram of the per-node verdicts, sorted. */
function preemptionVerdict(nodes: number, unresolvable: number): string {
  const counts = [
    [unresolvable, 'Preemption is not helpful for scheduling'],
    [nodes - unresolvable, 'No preemption victims found for incoming pod'],
  ] as const;
  const parts = counts
    .filter(([n]) => n > 0)
    .map(([n, why]) => `${n} ${why}`)
    .sort();
  return nodesAvailable(nodes, parts);
}

/** FitError's sentence: `0/3 nodes are available: 2 Insufficient cpu, 1 Too many pods.` */
function nodesAvailable(nodes: number, reasons: readonly string[]): string {
  return `0/${nodes} nodes are available${reasons.length ? `: ${reasons.join(', ')}` : ''}.`;
}

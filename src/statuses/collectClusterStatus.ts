import type { APIEnablement, ClusterStatus, Condition, ResourceModel } from '../api/cluster.ts';
import { NoClusterClientError, type KubeResponse, type KubeTarget } from '../deliveries/KubeTarget.ts';
import { sendRequest, statusMessage, type RetryPolicy } from '../deliveries/sendRequest.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import { CLUSTER_READY, COMPLETE_API_ENABLEMENTS } from '../api/conditions.ts';
import { buildApiEnablements, summarizeResources } from './summarizeCluster.ts';

/** One quick try: a cluster status probe should report "not reachable" soon, not after a long backoff. */
const PROBE_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/**
 * A member's Cluster.status as Karmada's cluster status controller builds it: the Ready condition from /readyz
 * (falling back to /healthz when /readyz is 404; 200 is Ready, another 2xx reachable but not ready, anything else
 * not reachable), and, when the member is Ready, kubernetesVersion (/version), apiEnablements (discovery) with the
 * CompleteAPIEnablements condition, nodeSummary and resourceSummary (Nodes and Pods). The messages are Karmada's
 * words. A status with CompleteAPIEnablements is a full collection (what it leaves out, the member no longer has); one
 * with Ready alone (unreachable, or its nodes and pods could not be listed) leaves the writer the last known values
 * of the rest, as Karmada keeps them.
 */
export async function collectClusterStatus(
  kube: KubeTarget,
  opts: {
    retry?: RetryPolicy;
    resourceModels?: readonly ResourceModel[];
    /** Why the member is not reachable: Karmada's condition message does not say, its log does. */
    onUnreachable?: (detail: string) => void;
  } = {},
): Promise<ClusterStatus> {
  const retry = opts.retry ?? PROBE_RETRY;
  let health: KubeResponse;
  try {
    health = await sendRequest(kube, { method: 'GET', path: '/readyz', timeoutMs: 5_000 }, retry);
    if (health.status === 404)
      health = await sendRequest(kube, { method: 'GET', path: '/healthz', timeoutMs: 5_000 }, retry);
  } catch (err) {
    const noClient = err instanceof Error && err.cause instanceof NoClusterClientError ? err.cause : undefined;
    if (!noClient) opts.onUnreachable?.(err instanceof Error ? err.message : String(err));
    return {
      conditions: [
        noClient
          ? ready('False', 'StatusCollectionFailed', noClient.message)
          : ready('False', 'ClusterNotReachable', NOT_REACHABLE),
      ],
    };
  }
  // client-go takes any status outside 200-206 for an error: Karmada's getClusterHealthStatus then calls the member
  // offline (not reachable, and collects nothing else); 200 is healthy whatever the body says.
  if (health.status < 200 || health.status > 206) {
    opts.onUnreachable?.(statusMessage(health));
    return { conditions: [ready('False', 'ClusterNotReachable', NOT_REACHABLE)] };
  }
  // Reachable but not healthy: Karmada collects nothing else from it either.
  if (health.status !== 200)
    return {
      conditions: [ready('False', 'ClusterNotReady', 'cluster is reachable but health endpoint responded without ok')],
    };

  const status: ClusterStatus = {
    conditions: [ready('True', 'ClusterReady', 'cluster is healthy and ready to accept workloads')],
  };
  const [version, enablements, summary] = await Promise.all([
    readVersion(kube, retry).catch(() => undefined),
    readApiEnablements(kube, retry),
    readSummary(kube, retry, opts.resourceModels).catch(() => undefined),
  ]);
  // Karmada gives up the whole update when the member's node and pod informers do not sync; Ready alone goes here.
  if (!summary) return status;
  if (version) status.kubernetesVersion = version;
  if (enablements.list.length > 0) status.apiEnablements = enablements.list;
  status.conditions!.push(apiEnablementsCondition(enablements.list.length, enablements.complete));
  Object.assign(status, summary);
  return status;
}

const NOT_REACHABLE = 'cluster is not reachable';

/** Karmada's CompleteAPIEnablements: Empty when discovery gave nothing, Partial when a groupVersion failed. */
function apiEnablementsCondition(count: number, complete: boolean): Condition {
  if (count === 0)
    return {
      type: COMPLETE_API_ENABLEMENTS,
      status: 'False',
      reason: 'Empty',
      message: 'collected empty APIEnablements from the cluster',
    };
  if (!complete)
    return {
      type: COMPLETE_API_ENABLEMENTS,
      status: 'False',
      reason: 'Partial',
      message: `might collect partial APIEnablements(${count}) from the cluster`,
    };
  return {
    type: COMPLETE_API_ENABLEMENTS,
    status: 'True',
    reason: 'Complete',
    message: 'collected complete APIEnablements from the cluster',
  };
}

/** Whether the member answered the probe that built this status: its objects and endpoints can be read now. */
export function memberAnswered(status: ClusterStatus | undefined): boolean {
  return (
    status?.conditions?.some(
      (c) => c.type === CLUSTER_READY && c.reason !== 'ClusterNotReachable' && c.reason !== 'StatusCollectionFailed',
    ) ?? false
  );
}

function ready(status: Condition['status'], reason: string, message: string): Condition {
  return { type: CLUSTER_READY, status, reason, message };
}

async function readVersion(kube: KubeTarget, retry: RetryPolicy): Promise<string | undefined> {
  const res = await sendRequest(kube, { method: 'GET', path: '/version' }, retry);
  return res.status === 200 ? (res.body as { gitVersion?: string }).gitVersion : undefined;
}

/** Every groupVersion's resources; a groupVersion that cannot be read is left out and makes the list incomplete. */
async function readApiEnablements(
  kube: KubeTarget,
  retry: RetryPolicy,
): Promise<{ list: APIEnablement[]; complete: boolean }> {
  const read = (path: string) => sendRequest(kube, { method: 'GET', path }, retry).catch(() => undefined);
  const [core, groups] = await Promise.all([read('/api'), read('/apis')]);
  // client-go's ServerGroupsAndResources returns no list at all when the groups cannot be read.
  if (core?.status !== 200 || groups?.status !== 200) return { list: [], complete: false };
  const gvs = [
    ...((core.body as { versions?: string[] }).versions ?? []),
    ...((groups.body as { groups?: { versions?: { groupVersion: string }[] }[] }).groups ?? []).flatMap((g) =>
      (g.versions ?? []).map((v) => v.groupVersion),
    ),
  ];
  const lists = new Map<string, { name: string; kind: string; namespaced: boolean }[]>();
  let complete = true;
  await mapLimit(gvs, 8, async (gv) => {
    const res = await sendRequest(
      kube,
      { method: 'GET', path: gv.includes('/') ? `/apis/${gv}` : `/api/${gv}` },
      retry,
    ).catch(() => undefined);
    if (res?.status !== 200) {
      complete = false;
      return;
    }
    const resources =
      (res.body as { resources?: { name: string; kind: string; namespaced: boolean }[] }).resources ?? [];
    lists.set(gv, resources);
    // Fresh discovery is also good for the applier's cache on this cluster.
    kube.discovery.set(
      gv,
      Promise.resolve(
        resources
          .filter((r) => !r.name.includes('/'))
          .map((r) => ({ name: r.name, kind: r.kind, namespaced: r.namespaced })),
      ),
    );
  });
  return { list: buildApiEnablements(lists), complete };
}

async function readSummary(kube: KubeTarget, retry: RetryPolicy, resourceModels?: readonly ResourceModel[]) {
  // Karmada's informer holds every pod; terminated ones matter only unbound (still allocating), so two lists stand in
  // for all of them without reading every finished Job pod.
  const [nodes, live, unbound] = await Promise.all([
    sendRequest(kube, { method: 'GET', path: '/api/v1/nodes' }, retry),
    sendRequest(
      kube,
      { method: 'GET', path: '/api/v1/pods', query: { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' } },
      retry,
    ),
    sendRequest(kube, { method: 'GET', path: '/api/v1/pods', query: { fieldSelector: 'spec.nodeName=' } }, retry),
  ]);
  const failed = [nodes, live, unbound].find((r) => r.status !== 200);
  if (failed) throw new Error(`listing nodes or pods failed: ${statusMessage(failed)}`);
  const items = (r: KubeResponse) => (r.body as { items?: Record<string, unknown>[] }).items ?? [];
  return summarizeResources(items(nodes), mergePods(items(live), items(unbound)), resourceModels);
}

/** The live pods and the unbound ones, each pod once (one may have finished between the two lists). */
function mergePods(live: Record<string, unknown>[], unbound: Record<string, unknown>[]): Record<string, unknown>[] {
  const uid = (p: Record<string, unknown>) => (p.metadata as { uid?: string } | undefined)?.uid;
  const seen = new Set(live.map(uid));
  return [...live, ...unbound.filter((p) => !seen.has(uid(p)))];
}

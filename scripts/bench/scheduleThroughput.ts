// schedule() in a tight loop over the fleet's bindings, each scheduled afresh (no previous result, so
// needsReschedule never short-cuts): bindings per second on one core.
import { performance } from 'node:perf_hooks';
import { parse } from 'yaml';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Cluster } from '../../src/api/cluster.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import type { SchedulingRequest } from '../../src/assignments/types.ts';

/** The scheduling inputs of every rendered binding that came from a policy. */
export function requestsFromBindings(rendered: ReadonlyMap<string, Buffer>): SchedulingRequest[] {
  const out: SchedulingRequest[] = [];
  for (const [path, bytes] of rendered) {
    if (!path.startsWith('bindings/')) continue;
    const b = parse(bytes.toString('utf8')) as ResourceBinding;
    if (!b.spec.placement) continue; // attached binding of a dependency: never scheduled itself
    const r = b.spec.resource;
    out.push({
      resource: { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name },
      placement: b.spec.placement,
      replicas: b.spec.replicas ?? 0,
      ...(b.spec.replicaRequirements ? { replicaRequirements: true } : {}),
      ...(b.spec.replicaRequirements?.resourceRequest
        ? { resourceRequest: b.spec.replicaRequirements.resourceRequest }
        : {}),
      previous: [],
    });
  }
  return out;
}

export interface ScheduleThroughput {
  bindings: number;
  calls: number;
  seconds: number;
  perSecond: number;
  /** Per second of this thread's CPU time (user + system): what one core does, whatever else the machine runs. */
  perCpuSecond: number;
  /** Results per status over one pass: a fleet where nothing fits would measure the wrong thing. */
  statuses: Record<string, number>;
}

export function measureSchedule(
  requests: readonly SchedulingRequest[],
  clusters: readonly Cluster[],
  minSeconds = 2,
): ScheduleThroughput {
  if (requests.length === 0) throw new Error('no bindings to schedule: did the render place anything?');
  const statuses: Record<string, number> = {};
  for (const req of requests) {
    const s = schedule(req, clusters).status;
    statuses[s] = (statuses[s] ?? 0) + 1;
  } // also the warm-up
  let calls = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let elapsed = 0;
  do {
    for (const req of requests) schedule(req, clusters);
    calls += requests.length;
    elapsed = (performance.now() - started) / 1000;
  } while (elapsed < minSeconds);
  const cpu = process.cpuUsage(cpuStarted);
  const perCpuSecond = calls / ((cpu.user + cpu.system) / 1e6);
  return { bindings: requests.length, calls, seconds: elapsed, perSecond: calls / elapsed, perCpuSecond, statuses };
}

/** The most replicas a workload can ask for (int32): a pull request chooses the count. */
const HUGE_REPLICAS = 2147483647;

/**
 * ms (median of five) to schedule one binding of 2147483647 replicas divided by static weights over every cluster:
 * the division must take time by the clusters, never by the replicas. The tests bound the work by counts
 * (test/assignments/divideByWebsterAtScale.test.ts); this is the time a user waits for it.
 */
export function measureHugeDivision(clusters: readonly Cluster[]): number {
  const names = clusters.map((c) => c.metadata.name);
  const req: SchedulingRequest = {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'bench', name: 'huge', uid: 'bench-huge' },
    placement: {
      clusterAffinity: { clusterNames: names },
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: {
          staticWeightList: names.map((n, i) => ({ targetCluster: { clusterNames: [n] }, weight: 1 + (i % 7) })),
        },
      },
    },
    replicas: HUGE_REPLICAS,
    previous: [],
  };
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const result = schedule(req, clusters);
    times.push(performance.now() - started);
    const placed = result.clusters.reduce((sum, tc) => sum + tc.replicas, 0);
    if (result.status !== 'Scheduled' || placed !== HUGE_REPLICAS)
      throw new Error(`${HUGE_REPLICAS} replicas: ${result.status}, ${placed} placed: ${result.message}`);
  }
  return times.sort((a, b) => a - b)[2] as number;
}

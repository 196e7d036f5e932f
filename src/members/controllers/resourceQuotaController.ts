import { addQuantity, formatQuantity, parseQuantity, type Quantity } from '../../quantities/canonicalQuantity.ts';
import { podQosClass } from '../resources/podQos.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { PODS, statusChanged } from './workloadPods.ts';

type Json = any;
type Usage = Map<string, Quantity>;

const QUOTAS = '/resourcequotas';
const ZERO: Quantity = { mantissa: 0n, scale: 0, format: 'DecimalSI' };
const ONE: Quantity = { mantissa: 1n, scale: 0, format: 'DecimalSI' };

/** Quota names kube-controller-manager's core evaluators count as objects, beside `count/<resource>[.<group>]`. */
const LEGACY_COUNTS: Record<string, string> = {
  configmaps: '/configmaps',
  secrets: '/secrets',
  resourcequotas: '/resourcequotas',
  replicationcontrollers: '/replicationcontrollers',
  services: '/services',
  persistentvolumeclaims: '/persistentvolumeclaims',
};

/**
 * Kubernetes' resource quota controller (pkg/controller/resourcequota syncResourceQuota): status.hard is spec.hard,
 * status.used what the namespace uses of each resource hard names, computed by the evaluators: pods (`pods` the
 * pods not terminal nor past their deletion grace, `count/pods` every pod, and their cpu, memory and
 * ephemeral-storage requests and limits, as resourcehelper.PodRequests and PodLimits sum them), the object counts
 * (`count/<plural>[.<group>]` and the legacy configmaps, secrets, services...). A resource no evaluator here knows
 * (services.nodeports, requests.storage, extended resources) is left out of used. Pod scopes Terminating,
 * NotTerminating, BestEffort and NotBestEffort are honoured; other scopes and scopeSelector are not.
 */
export function resourceQuotaController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const quota = store.get(QUOTAS, namespace, name);
    if (!quota || quota.metadata.deletionTimestamp || !namespace) return;
    const hard: Record<string, string> = quota.spec?.hard ?? {};
    const count = (resource: string) => store.list(resource, namespace).length;
    const used = quotaUsage(
      Object.keys(hard),
      quota.spec?.scopes ?? [],
      store.list(PODS, namespace),
      (quotaName) => {
        const legacy = LEGACY_COUNTS[quotaName];
        if (legacy) return count(legacy);
        const m = /^count\/([^.]+)(?:\.(.+))?$/.exec(quotaName);
        return m ? count(`${m[2] ?? ''}/${m[1]}`) : undefined;
      },
      Date.parse(deps.now()),
    );
    // Both omitempty in ResourceQuotaStatus.
    const status = {
      ...(Object.keys(hard).length > 0 ? { hard: { ...hard } } : {}),
      ...(Object.keys(used).length > 0 ? { used } : {}),
    };
    if (statusChanged(quota, status))
      store.update(registry.byResourceKey(QUOTAS)!, { ...structuredClone(quota), status });
  }

  const inNamespace = (namespace: string | undefined) =>
    store.list(QUOTAS, namespace).map((q) => keyOf(q.metadata.namespace, q.metadata.name!));

  return {
    name: 'resourcequota',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === QUOTAS && event.type !== 'DELETED') return [keyOf(o.metadata.namespace, o.metadata.name!)];
      // Any namespaced object can be counted (count/<resource>): its namespace's quotas look again.
      return o.metadata.namespace ? inNamespace(o.metadata.namespace) : [];
    },
    reconcile,
    initialKeys: () => inNamespace(undefined),
  };
}

/**
 * The used list of a quota (quota.CalculateUsage, masked to hard's names): each pod-evaluated name summed over the
 * pods the scopes take, each counted name from `countOf` (undefined: not an object count). Quantities as the
 * controller's Quantity.Add leaves them: every tracked name starts at a zero DecimalSI, which takes the format of the
 * first non-zero added; written canonical.
 */
export function quotaUsage(
  hardNames: readonly string[],
  scopes: readonly string[],
  pods: readonly KubeObject[],
  countOf: (quotaName: string) => number | undefined,
  nowMs: number,
): Record<string, string> {
  const used: Usage = new Map();
  const tracked = new Set(hardNames);
  for (const name of tracked) if (isPodResource(name)) used.set(name, ZERO);
  const podNamesTracked = hardNames.some(isPodResource);
  if (podNamesTracked)
    for (const pod of pods) {
      if (!scopes.every((scope) => matchesScope(scope, pod))) continue;
      for (const [name, q] of podUsage(pod, nowMs))
        if (tracked.has(name)) used.set(name, addQuantity(used.get(name)!, q));
    }
  for (const name of tracked) {
    if (isPodResource(name)) continue;
    const n = countOf(name);
    if (n !== undefined) used.set(name, { mantissa: BigInt(n), scale: 0, format: 'DecimalSI' });
  }
  return Object.fromEntries([...used].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, q]) => [k, formatQuantity(q)]));
}

const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'];

function isPodResource(name: string): boolean {
  return (
    name === 'pods' ||
    name === 'count/pods' ||
    COMPUTE.includes(name) ||
    COMPUTE.some((r) => name === `requests.${r}` || name === `limits.${r}`)
  );
}

/** PodUsageFunc: count/pods always; the rest only while the pod counts for quota (QuotaV1Pod). */
function podUsage(pod: KubeObject, nowMs: number): Usage {
  const usage: Usage = new Map([['count/pods', ONE]]);
  if (!countsForQuota(pod, nowMs)) return usage;
  usage.set('pods', ONE);
  const requests = podResources(pod, 'requests');
  const limits = podResources(pod, 'limits');
  for (const r of COMPUTE) {
    const request = requests.get(r);
    if (request) {
      usage.set(r, request);
      usage.set(`requests.${r}`, request);
    }
    const limit = limits.get(r);
    if (limit) usage.set(`limits.${r}`, limit);
  }
  return usage;
}

function countsForQuota(pod: KubeObject, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  return !(deletion && typeof grace === 'number' && nowMs > Date.parse(deletion) + grace * 1000);
}

/**
 * resourcehelper.PodRequests / PodLimits: the containers' sum; each restartable (sidecar) init container adds to it,
 * and the largest of a regular init container plus the sidecars started before it raises it; then the overhead
 * (for limits, only onto resources some container limits).
 */
function podResources(pod: KubeObject, field: 'requests' | 'limits'): Usage {
  const of = (c: Json): Usage => {
    const out: Usage = new Map();
    // The API server defaults a request from the limit (SetDefaults_Pod).
    const list = { ...(field === 'requests' ? (c?.resources?.limits ?? {}) : {}), ...(c?.resources?.[field] ?? {}) };
    for (const [name, value] of Object.entries(list)) {
      const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(String(value)) : undefined;
      if (q) out.set(name, q);
    }
    return out;
  };
  const add = (into: Usage, list: Usage) => {
    for (const [k, q] of list) into.set(k, into.has(k) ? addQuantity(into.get(k)!, q) : q);
  };
  const max = (into: Usage, list: Usage) => {
    for (const [k, q] of list) {
      const had = into.get(k);
      if (!had || compare(q, had) > 0) into.set(k, q);
    }
  };
  const total: Usage = new Map();
  for (const c of pod.spec?.containers ?? []) add(total, of(c));
  const sidecars: Usage = new Map();
  const init: Usage = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = of(c);
    if (c?.restartPolicy === 'Always') {
      add(total, own);
      add(sidecars, own);
      max(init, sidecars);
    } else {
      const running: Usage = new Map(own);
      add(running, sidecars);
      max(init, running);
    }
  }
  max(total, init);
  const overhead: Usage = new Map();
  for (const [name, value] of Object.entries(pod.spec?.overhead ?? {})) {
    const q = parseQuantity(String(value));
    if (q) overhead.set(name, q);
  }
  if (field === 'requests') add(total, overhead);
  else for (const [k, q] of overhead) if (total.has(k)) total.set(k, addQuantity(total.get(k)!, q));
  return total;
}

function compare(a: Quantity, b: Quantity): number {
  const scale = Math.min(a.scale, b.scale);
  const x = a.mantissa * 10n ** BigInt(a.scale - scale);
  const y = b.mantissa * 10n ** BigInt(b.scale - scale);
  return x > y ? 1 : x < y ? -1 : 0;
}

/** The pod scopes (podMatchesScopeFunc) this emulator knows; any other takes no pod. */
function matchesScope(scope: string, pod: KubeObject): boolean {
  const terminating = typeof pod.spec?.activeDeadlineSeconds === 'number';
  switch (scope) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return podQosClass(pod) === 'BestEffort';
    case 'NotBestEffort':
      return podQosClass(pod) !== 'BestEffort';
    default:
      return false;
  }
}

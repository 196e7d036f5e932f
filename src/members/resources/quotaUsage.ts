import { addQuantity, formatQuantity, parseQuantity, type Quantity } from '../../quantities/canonicalQuantity.ts';
import type { KubeObject } from '../types.ts';
import { podQosClass } from './podQos.ts';

// What kube-controller-manager's quota evaluators count (pkg/quota/v1/evaluator/core), shared by the quota
// controller, which writes it into status.used, and the ResourceQuota admission plugin, which refuses a create that
// would take it past status.hard.

type Json = any;
type Usage = Map<string, Quantity>;

/** The store's resource keys the evaluators read. */
const PODS = '/pods';
export const QUOTAS = '/resourcequotas';
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

/** What the evaluators read of a namespace: its objects of one resource. */
export interface QuotaObjects {
  list(resource: string, namespace?: string): KubeObject[];
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

/** quotaUsage of a namespace's pods and object counts, read from the store: what the controller writes into used. */
export function namespaceUsage(
  store: QuotaObjects,
  namespace: string,
  hardNames: readonly string[],
  scopes: readonly string[],
  nowMs: number,
): Record<string, string> {
  return quotaUsage(
    hardNames,
    scopes,
    store.list(PODS, namespace),
    (quotaName) => {
      const counted = countedResource(quotaName);
      return counted === undefined ? undefined : store.list(counted, namespace).length;
    },
    nowMs,
  );
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

/** The resources whose explicit request or limit a quota on them makes every container give (podEvaluator.Constraints). */
const CONSTRAINED = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/**
 * The ResourceQuota admission plugin's answer to creating `object` (plugin/pkg/admission/resourcequota checkQuotas):
 * the reason the create is forbidden, or undefined. Each quota of the namespace that tracks the object (a pod its scopes
 * take, or an object its `count/...` names count) must first be satisfied in its constraints (a quota on cpu or memory
 * needs every container to request it), then hold what the namespace uses plus the object within `hard`. What the
 * namespace uses is counted now, as the controller counts it, not read from a status that may lag.
 */
export function quotaRefusal(
  store: QuotaObjects,
  resource: string,
  object: KubeObject,
  nowMs: number,
): string | undefined {
  const namespace = object.metadata.namespace;
  if (!namespace) return undefined;
  const quotas = store
    .list(QUOTAS, namespace)
    .filter((q) => !q.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
  if (quotas.length === 0) return undefined;
  const isPod = resource === PODS;
  const delta: Usage = isPod ? podUsage(object, nowMs) : new Map(countNames(resource).map((n) => [n, ONE]));
  const tracking: [KubeObject, string[]][] = [];
  for (const quota of quotas) {
    const hard: Record<string, string> = quota.spec?.hard ?? {};
    const scopes: string[] = quota.spec?.scopes ?? [];
    const names = Object.keys(hard).filter((n) => (isPod ? isPodResource(n) : delta.has(n)));
    if (names.length === 0) continue;
    if (isPod ? !scopes.every((s) => matchesScope(s, object)) : scopes.length > 0) continue;
    if (isPod) {
      const missing = missingConstraints(object, names);
      if (missing) return `failed quota: ${quota.metadata.name}: must specify ${missing}`;
    }
    tracking.push([quota, names]);
  }
  for (const [quota, names] of tracking) {
    const hard: Record<string, string> = quota.spec.hard;
    const requested = names.filter((n) => delta.has(n));
    if (requested.length === 0) continue;
    const used = namespaceUsage(store, namespace, names, quota.spec?.scopes ?? [], nowMs);
    const exceeded = requested
      .filter((n) => {
        const limit = parseQuantity(hard[n]!);
        const now = addQuantity(parseQuantity(used[n] ?? '0') ?? ZERO, delta.get(n)!);
        return limit !== undefined && compare(now, limit) > 0;
      })
      .sort();
    if (exceeded.length > 0) {
      const list = (value: (n: string) => string) => exceeded.map((n) => `${n}=${value(n)}`).join(',');
      return `exceeded quota: ${quota.metadata.name}, requested: ${list((n) => formatQuantity(delta.get(n)!))}, used: ${list((n) => used[n] ?? '0')}, limited: ${list((n) => formatQuantity(parseQuantity(hard[n]!)!))}`;
    }
  }
  return undefined;
}

/** The quota names that count an object of this store resource: `count/<plural>[.<group>]`, and a legacy name. */
function countNames(resource: string): string[] {
  const [group, plural] = resource.split('/') as [string, string];
  const legacy = Object.entries(LEGACY_COUNTS).find(([, r]) => r === resource)?.[0];
  return [`count/${plural}${group ? `.${group}` : ''}`, ...(legacy ? [legacy] : [])];
}

/** The store resource a quota name counts, for the object-count evaluators. */
function countedResource(quotaName: string): string | undefined {
  const legacy = LEGACY_COUNTS[quotaName];
  if (legacy) return legacy;
  const m = /^count\/([^.]+)(?:\.(.+))?$/.exec(quotaName);
  return m ? `${m[2] ?? ''}/${m[1]}` : undefined;
}

/**
 * enforcePodContainerConstraints over every container: `requests.cpu for: a,b; limits.memory for: a`, or undefined
 * when each container gives what the quota's cpu and memory names need (a limit alone defaults the request).
 */
function missingConstraints(pod: KubeObject, names: readonly string[]): string | undefined {
  const required = names.filter((n) => CONSTRAINED.has(n));
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const limits = c?.resources?.limits ?? {};
    const requests = { ...limits, ...(c?.resources?.requests ?? {}) };
    const given = new Set<string>();
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined) given.add(r).add(`requests.${r}`);
      if (limits[r] !== undefined) given.add(`limits.${r}`);
    }
    for (const r of required) if (!given.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(String(c?.name)));
  }
  if (missing.size === 0) return undefined;
  return [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`)
    .join('; ');
}

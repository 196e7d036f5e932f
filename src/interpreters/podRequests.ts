import type { ResourceList } from '../api/cluster.ts';
import { parseQuantity, quantityMilliValue, quantityValue, type Quantity } from '../quantities/parseQuantity.ts';
import { formatResourceList } from '../quantities/resourceLists.ts';

type Obj = Record<string, unknown>;
type Requests = Record<string, string | number>;

/**
 * A pod's effective requests as Karmada counts them (util.Resource.AddPodRequest): the sum over app containers,
 * raised to the largest init container where that is bigger, plus pod overhead. Like Karmada's Resource, each
 * quantity is rounded up on its own (CPU to millicores, the rest to whole units) before it is added, only the
 * resources the scheduler knows are counted (cpu, memory, ephemeral-storage, pods, extended, hugepages-*,
 * attachable-volumes-*, *kubernetes.io/*), and zeros are left out. For pods the API server has defaulted.
 */
export function podRequests(podSpec: Obj): ResourceList {
  const sum: RequestSum = new Map();
  addPodRequest(sum, podSpec);
  return requestList(sum);
}

/** Karmada's util.Resource: amounts by resource name, cpu in millicores, the rest in whole units. */
export type RequestSum = Map<string, bigint>;

/**
 * Resource.AddPodRequest on a running sum: the app containers are added, then each init container raises the sum so
 * far, not the pod's own requests, to its request, then the overhead is added. Karmada sums a cluster's (or a node's)
 * pods into one Resource this way, so an init container larger than its pod's containers counts only where it
 * exceeds everything summed before it.
 */
export function addPodRequest(sum: RequestSum, podSpec: Obj): void {
  const spec = podSpec as { containers?: Obj[]; initContainers?: Obj[]; overhead?: Requests };
  for (const c of spec.containers ?? []) add(sum, requestsOf(c));
  for (const c of spec.initContainers ?? []) {
    for (const [name, amount] of amounts(requestsOf(c))) if (amount > (sum.get(name) ?? 0n)) sum.set(name, amount);
  }
  add(sum, spec.overhead ?? {});
}

/** Resource.ResourceList: the amounts above zero, in Karmada's formats. */
export function requestList(sum: RequestSum): ResourceList {
  const out = new Map<string, Quantity>();
  for (const [name, amount] of sum) if (amount > 0n) out.set(name, { num: amount, den: name === 'cpu' ? 1000n : 1n });
  return formatResourceList(out);
}

/**
 * A pod template's requests (util.Resource.AddPodTemplateRequest, what InterpretReplica reports): a template has not
 * been through the API server's defaulting, so a container's limit stands in for a request it does not set.
 */
export function podTemplateRequests(podSpec: Obj): ResourceList {
  const withLimits = (c: Obj): Obj => {
    const resources = c?.resources as { requests?: Requests; limits?: Requests } | undefined;
    if (!resources?.limits || typeof resources.limits !== 'object') return c;
    return { ...c, resources: { ...resources, requests: { ...resources.limits, ...(resources.requests ?? {}) } } };
  };
  const spec = podSpec as { containers?: Obj[]; initContainers?: Obj[] };
  return podRequests({
    ...podSpec,
    ...(Array.isArray(spec.containers) ? { containers: spec.containers.map(withLimits) } : {}),
    ...(Array.isArray(spec.initContainers) ? { initContainers: spec.initContainers.map(withLimits) } : {}),
  });
}

function add(into: Map<string, bigint>, list: Requests): void {
  for (const [name, amount] of amounts(list)) into.set(name, (into.get(name) ?? 0n) + amount);
}

/** Each counted resource of a list, rounded up as Karmada's Resource stores it (MilliValue for cpu, Value otherwise). */
function amounts(list: Requests): [string, bigint][] {
  const out: [string, bigint][] = [];
  if (!list || typeof list !== 'object') return out;
  for (const [name, value] of Object.entries(list)) {
    const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
    if (q && isCounted(name)) out.push([name, name === 'cpu' ? quantityMilliValue(q) : quantityValue(q)]);
  }
  return out;
}

function requestsOf(container: Obj): Requests {
  return (container?.resources as { requests?: Requests } | undefined)?.requests ?? {};
}

const NATIVE_COUNTED = new Set(['cpu', 'memory', 'ephemeral-storage', 'pods']);
// IsQualifiedName: an optional DNS-subdomain prefix and a name of at most 63 characters.
const QUALIFIED_NAME =
  /^(?:(?=.{1,253}\/)[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(?=[^/]{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** util.Resource's switch: the four native names, else lifted.IsScalarResourceName; any other name is not counted. */
function isCounted(name: string): boolean {
  return NATIVE_COUNTED.has(name) || isScalarResourceName(name);
}

/** lifted.IsScalarResourceName: extended resources, hugepages-*, attachable-volumes-*, *kubernetes.io/ names. */
export function isScalarResourceName(name: string): boolean {
  const prefixedNative = name.includes('kubernetes.io/');
  const native = !name.includes('/') || prefixedNative;
  const extended = !native && !name.startsWith('requests.') && QUALIFIED_NAME.test(`requests.${name}`);
  return extended || name.startsWith('hugepages-') || prefixedNative || name.startsWith('attachable-volumes-');
}

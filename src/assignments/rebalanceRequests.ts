// WorkloadRebalancer in Git: which reschedule requests name a workload, and which of them its binding has
// not observed yet. Karmada marks a binding with rescheduleTriggeredAt and compares it with the last
// scheduling time; Git has no clock Flotilla may use, so the binding lists the requests it has observed.
import type { ResourceBinding } from '../api/binding.ts';
import { refKey, type ObjectRef } from '../api/kinds.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import { bindingName } from '../names/bindingName.ts';

export const OBSERVED_REBALANCERS_ANNOTATION = 'flotilla.io/observed-rebalancers';

/**
 * One request: the rebalancer's name. Karmada triggers a workload once per rebalancer (its creationTimestamp against
 * the binding's rescheduleTriggeredAt, and a Successful workload is skipped when the spec is edited), so an edit that
 * lists more workloads reschedules only those it adds.
 */
export function requestToken(r: WorkloadRebalancer): string {
  return r.metadata.name;
}

/**
 * The refKey a rebalancer's workload names. Without a namespace it is a cluster-scoped object, as Karmada's
 * ObjectReference says: a namespaced Deployment listed without one names nothing (Karmada: RebalanceObjectNotFound).
 */
export function workloadKeys(w: WorkloadRebalancer['spec']['workloads'][number]): string[] {
  return [refKey({ apiVersion: w.apiVersion, kind: w.kind, name: w.name, namespace: w.namespace ?? '' })];
}

/**
 * How a rebalancer's entry names a workload, and how a template is found by it: Karmada looks the entry up by its
 * binding's name in its namespace (names.GenerateBindingName: the kind lowercased, the apiVersion not read), so
 * `kind: deployment`, or a Deployment listed at another version, names the same workload.
 */
export function workloadIdentity(ref: { namespace?: string; kind: string; name: string }): string {
  return `${ref.namespace ?? ''}/${bindingName(ref.kind, ref.name)}`;
}

/** The identities a rebalancer's entries name, made once per rebalancer: every scheduled template asks. */
const named = new WeakMap<WorkloadRebalancer, ReadonlySet<string>>();
export function namedBy(r: WorkloadRebalancer): ReadonlySet<string> {
  let set = named.get(r);
  if (!set) named.set(r, (set = new Set(r.spec.workloads.map(workloadIdentity))));
  return set;
}

/** Tokens of every rebalancer that lists this workload, sorted. */
export function requestsFor(ref: ObjectRef, rebalancers: readonly WorkloadRebalancer[]): string[] {
  if (rebalancers.length === 0) return [];
  const identity = workloadIdentity(ref);
  return rebalancers
    .filter((r) => namedBy(r).has(identity))
    .map(requestToken)
    .sort();
}

export function observedRequests(binding: ResourceBinding | undefined): Set<string> {
  const raw = binding?.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION];
  // Output written before requests were names alone records `<name>@<generation>`; a name never holds '@'.
  return new Set(
    raw
      ? raw
          .split(',')
          .filter(Boolean)
          .map((t) => t.split('@')[0]!)
      : [],
  );
}

/** The requests not yet observed: non-empty means schedule in fresh mode now. */
export function pendingRequests(requests: readonly string[], binding: ResourceBinding | undefined): string[] {
  const seen = observedRequests(binding);
  return requests.filter((t) => !seen.has(t));
}

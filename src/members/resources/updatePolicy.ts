import type { ResourceType } from '../types.ts';

// Two switches of each kind's rest.RESTUpdateStrategy (k8s.io/apiserver/pkg/registry/generic/registry/store.go
// Update), read from the kinds' strategy.go. AllowCreateOnUpdate: a PUT of a missing object creates it.
// AllowUnconditionalUpdate: a PUT without a resourceVersion overwrites whatever is stored; where it is false, the
// API server refuses such a PUT, so no writer can skip optimistic concurrency (a Lease's holder, a custom resource).

/** Kinds whose strategy says AllowCreateOnUpdate true (pkg/registry/{coordination/lease,core/endpoint,...}). */
const CREATE_ON_UPDATE = new Set([
  'coordination.k8s.io/leases',
  '/endpoints',
  '/events',
  '/limitranges',
  'rbac.authorization.k8s.io/roles',
]);

/** Built-in kinds whose strategy says AllowUnconditionalUpdate false. */
const CONDITIONAL_UPDATE_ONLY = new Set(['coordination.k8s.io/leases']);

export function allowsCreateOnUpdate(rt: ResourceType): boolean {
  return !rt.crd && CREATE_ON_UPDATE.has(`${rt.group}/${rt.plural}`);
}

/** customResourceStrategy.AllowUnconditionalUpdate is false for every custom resource. */
export function allowsUnconditionalUpdate(rt: ResourceType): boolean {
  return !rt.crd && !CONDITIONAL_UPDATE_ONLY.has(`${rt.group}/${rt.plural}`);
}

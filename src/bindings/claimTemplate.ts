// Karmada's detector for one template (pkg/detector/detector.go: ApplyPolicy / ApplyClusterPolicy ->
// BuildResourceBinding): the winning policy claims the template and the binding is built from the template and that
// policy. The result (spec.clusters) is the scheduler's: the detector carries the previous one over untouched.
import type { ResourceBinding } from '../api/binding.ts';
import { describePolicy, matchPolicy, policyKey } from './matchPolicy.ts';
import { WORK_API_VERSION, parseRefKey, refKey } from '../api/kinds.ts';
import type { PropagationPolicy } from '../api/policy.ts';
import type { Customizations } from '../api/interpreterCustomization.ts';
import type { ConfigModel, Located, Template } from '../api/model.ts';
import { customizationFor, interpretersOf } from '../interpreters/customizations.ts';
import { interpretReplicas } from '../interpreters/interpretReplicas.ts';
import type { ResourceList } from '../api/cluster.ts';
import { bindingName, permanentId } from '../names/bindingName.ts';
import { schedulePriorityOf } from './schedulePriority.ts';
import { hasPolicyClaim } from './policyClaim.ts';

/** The detector's verdict on one template. */
export type Claim = { status: 'unmatched' | 'skipped'; reason: string } | ClaimedBinding;

/** A template claimed by a policy, with the binding the detector built for it. */
export interface ClaimedBinding {
  status: 'claimed';
  policy: Located<PropagationPolicy>;
  /** policyKey of the claiming policy, as the index records it. */
  policyKey: string;
  /** Why this policy won (printed by explain). */
  reason: string;
  /** The claimed binding: spec.clusters is still the previous result, and it has no status yet. */
  binding: ResourceBinding;
  /** InterpretReplica's count as read (spec.replicas of the binding leaves out a count that is not positive). */
  replicas: number;
  resourceRequest?: ResourceList;
  /** The template kind's InterpreterCustomization, looked up once for every later stage. */
  custom?: Customizations;
  /** The PriorityClass the policy's schedulePriority names when the commit lacks it: the binding cannot be built. */
  priorityClassMissing?: string;
}

/**
 * Claims the template for its winning policy, sticking to the previous claim while that policy still matches, and
 * builds the binding: claim labels and annotations, the replicas and requirements InterpretReplica reads, and the
 * policy's placement, propagateDeps, conflictResolution, preserveResourcesOnDeletion, suspension and failover.
 * `claimedBy`: the policy (policyKey) that claimed the template in an earlier render without building its binding
 * (the index's `claim`), which sticks as a binding's claim does when no binding holds one.
 */
export function claimTemplate(
  template: Template,
  model: ConfigModel,
  previous: ResourceBinding | undefined,
  claimedBy?: string,
): Claim {
  // A binding its policy let go of keeps flotilla.io/policy (where it ran) but no claim: Karmada's detector then
  // matches the template afresh, so the policy that let go is no better placed than any other when it returns.
  // Karmada's claim is on the template (ClaimPolicyForObject), made before BuildResourceBinding can fail: without a
  // binding, the index kept it.
  const match = matchPolicy(
    template,
    model.propagationPolicies,
    previous && hasPolicyClaim(previous) ? previous.metadata.annotations?.['flotilla.io/policy'] : claimedBy,
  );
  if (match.status !== 'matched') return { status: match.status, reason: match.reason };
  const policy = match.policy.object;
  const custom = customizationFor(interpretersOf(model), template.manifest);
  const { replicas, resourceRequest, nodeClaim } = interpretReplicas(template.manifest, custom);
  const pKey = policyKey(policy);
  const ref = template.ref;
  const scoped = ref.namespace === '';
  const kind = scoped ? 'ClusterResourceBinding' : 'ResourceBinding';
  const claim = claimMetadata(policy);
  const uid = (template.manifest.metadata as { uid?: string } | undefined)?.uid;
  const requirements = { ...(nodeClaim ? { nodeClaim } : {}), ...(resourceRequest ? { resourceRequest } : {}) };
  const priority = scoped ? NO_PRIORITY : schedulePriorityOf(policy, model.templates);
  const binding: ResourceBinding = {
    apiVersion: WORK_API_VERSION,
    kind,
    metadata: {
      name: bindingName(ref.kind, ref.name),
      ...(scoped ? {} : { namespace: ref.namespace }),
      labels: {
        ...claim.labels,
        [`${kind.toLowerCase()}.karmada.io/permanent-id`]: permanentId(`binding/${refKey(ref)}`),
      },
      annotations: { ...claim.annotations, 'flotilla.io/policy': pKey },
    },
    spec: {
      resource: {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        ...(scoped ? {} : { namespace: ref.namespace }),
        name: ref.name,
        ...(uid ? { uid } : {}),
      },
      ...(replicas > 0 ? { replicas } : {}),
      // InterpretReplica's requirements (nodeClaim, resourceRequest), absent when the template has neither.
      ...(Object.keys(requirements).length > 0 ? { replicaRequirements: requirements } : {}),
      clusters: previous?.spec.clusters ?? [],
      placement: policy.spec.placement ?? {},
      // Karmada's ApplyClusterPolicy updates an existing ClusterResourceBinding without its propagateDeps: it keeps
      // the value it was created with (no controller reads it there: dependencies follow ResourceBindings only).
      ...((
        scoped && previous?.kind === 'ClusterResourceBinding'
          ? previous.spec.propagateDeps
          : policy.spec.propagateDeps
      )
        ? { propagateDeps: true }
        : {}),
      conflictResolution: policy.spec.conflictResolution ?? 'Abort',
      // A *bool in Karmada's types: copied whenever the policy sets it, false included.
      ...(typeof policy.spec.preserveResourcesOnDeletion === 'boolean'
        ? { preserveResourcesOnDeletion: policy.spec.preserveResourcesOnDeletion }
        : {}),
      // The detector copies the policy's suspension (MergePolicySuspension); the binding controller reads it per cluster.
      ...(policy.spec.suspension ? { suspension: policy.spec.suspension } : {}),
      ...(policy.spec.failover ? { failover: policy.spec.failover } : {}),
      // Karmada copies it always, and its CRD defaults the policy's to default-scheduler.
      schedulerName: schedulerOf(policy.spec),
      ...(priority.status === 'found' ? { schedulePriority: priority.schedulePriority } : {}),
    },
  };
  return {
    status: 'claimed',
    policy: match.policy,
    policyKey: pKey,
    reason: match.reason,
    binding,
    replicas,
    ...(resourceRequest ? { resourceRequest } : {}),
    ...(custom ? { custom } : {}),
    ...(priority.status === 'missing' ? { priorityClassMissing: priority.priorityClass } : {}),
  };
}

const NO_PRIORITY = { status: 'none' } as const;

/**
 * The policy that placed this template last time, when no policy selects it now: deleted, or narrowed so it no longer
 * selects it (`remains`). Karmada removes the claim in both cases but never the binding or the Works, so member
 * objects stay (detector: handleResourceTemplateAndBindingCleanup, cleanPPUnmatchedRBs). A template that stopped
 * matching through its own change is treated alike; Karmada's getAndApplyPolicy leaves that claim until the policy
 * changes (README: Karmada semantics and differences).
 */
export function orphanedByPolicy(
  template: Template,
  previous: { policy?: string; clusters: readonly string[] } | undefined,
  policies: readonly Located<PropagationPolicy>[],
): { policy: string; remains: boolean } | undefined {
  const claim = previous?.policy;
  if (!claim || previous.clusters.length === 0) return undefined;
  if (matchPolicy(template, policies).status === 'matched') return undefined;
  const ref = parseRefKey(claim);
  return {
    policy: describePolicy({
      kind: ref.kind,
      metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}) },
    }),
    remains: policyKeysOf(policies).has(claim),
  };
}

/** The keys of a model's policies, once per list: every template of a render asks whether its last policy is there. */
const keysOfPolicies = new WeakMap<readonly Located<PropagationPolicy>[], Set<string>>();
function policyKeysOf(policies: readonly Located<PropagationPolicy>[]): Set<string> {
  let keys = keysOfPolicies.get(policies);
  if (!keys) keysOfPolicies.set(policies, (keys = new Set(policies.map((p) => policyKey(p.object)))));
  return keys;
}

/** A policy's claim labels and annotations, hashed once per policy rather than once per template it claims (shared: callers copy them). */
const claims = new WeakMap<
  PropagationPolicy,
  { labels: Record<string, string>; annotations: Record<string, string> }
>();
function claimMetadata(policy: PropagationPolicy): {
  labels: Record<string, string>;
  annotations: Record<string, string>;
} {
  let claim = claims.get(policy);
  if (!claim) claims.set(policy, (claim = claimMetadataOf(policy)));
  return claim;
}

function claimMetadataOf(policy: PropagationPolicy): {
  labels: Record<string, string>;
  annotations: Record<string, string>;
} {
  const id = permanentId(`policy/${policyKey(policy)}`);
  if (policy.kind === 'PropagationPolicy') {
    return {
      labels: { 'propagationpolicy.karmada.io/permanent-id': id },
      annotations: {
        'propagationpolicy.karmada.io/name': policy.metadata.name,
        'propagationpolicy.karmada.io/namespace': policy.metadata.namespace ?? 'default',
      },
    };
  }
  return {
    labels: { 'clusterpropagationpolicy.karmada.io/permanent-id': id },
    annotations: { 'clusterpropagationpolicy.karmada.io/name': policy.metadata.name },
  };
}

/** The scheduler Karmada runs by default, the only one Flotilla has (its render is that scheduler). */
export const DEFAULT_SCHEDULER = 'default-scheduler';

/** The scheduler a policy hands its bindings to: empty means the default (Karmada's schedulerNameFilter). */
export function schedulerOf(spec: { schedulerName?: string }): string {
  return spec.schedulerName || DEFAULT_SCHEDULER;
}

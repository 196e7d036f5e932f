// Karmada's binding controller for one member cluster (pkg/controllers/binding/common.go: ensureWork): the manifest
// of the Work a binding makes for that cluster.
import { atTemplate } from '../api/templatePlace.ts';
import type { ResourceBinding, TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import { describeRef, refKey } from '../api/kinds.ts';
import type { OverridePolicy, PropagationPolicy } from '../api/policy.ts';
import { divideByWebster } from '../assignments/divideByWebster.ts';
import { isWorkload } from '../assignments/framework.ts';
import { permanentId } from '../names/bindingName.ts';
import { supersededClaimKeys } from '../bindings/policyClaim.ts';
import { SOURCE_COMMIT_ANNOTATION } from './changedText.ts';
import { workName } from '../names/workName.ts';
import type { ConfigModel, Located, Template } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { customizationFor, customRetain, interpretersOf } from '../interpreters/customizations.ts';
import {
  byCodeUnit,
  MANAGED_ANNOTATIONS,
  MANAGED_LABELS,
  WORK_PERMANENT_ID_LABEL,
} from '../interpreters/controllerWorkMetadata.ts';
import { pruneForMember } from '../interpreters/pruneForMember.ts';
import { reviseJobCompletions, reviseReplicas } from '../interpreters/reviseReplicas.ts';
import { applyOverrides, type RefusedOverride } from '../overrides/applyOverrides.ts';
import { appliedOverridesAnnotation } from '../overrides/appliedOverridesAnnotation.ts';
import { labelRewritingClusterOverrides, overrideMayApply } from '../overrides/overrideMayApply.ts';
import {
  APPLIED_CLUSTER_OVERRIDES_ANNOTATION,
  APPLIED_OVERRIDES_ANNOTATION,
} from '../branches/rendered/workOnlyAnnotations.ts';
import { overrideTargetOf } from '../overrides/matchOverrideRules.ts';
import { identityChanges, type IdentityChange } from '../overrides/overrideIdentity.ts';
import { policiesInScope, type PolicyScope } from '../selectors/policiesInScope.ts';
import { BINDING_MANAGED_BY_LABEL, templateClaimOf, withoutTemplateClaim, withTemplateClaim } from './templateClaim.ts';
import { DEPENDED_BY_LABEL_PREFIX } from './distributeDependencies.ts';

/** What a Work is made of: the template, its binding (none for a synced Namespace) and its whole result. */
export interface WorkSource {
  template: Template;
  binding?: ResourceBinding | undefined;
  /** Every cluster the template goes to (a Job's completions are divided over them). */
  clusters: readonly TargetCluster[];
  policy?: Located<PropagationPolicy> | undefined;
}

export interface WorkManifest {
  /** undefined when an override or customization failed: that cluster keeps its previous output. */
  manifest: Record<string, unknown> | undefined;
  /** OVERRIDE_FAILED problems: the failure, or override rules refused for changing the object's identity. */
  problems: readonly Problem[];
}

const NO_PROBLEMS: readonly Problem[] = [];

/**
 * One member's manifest, in Karmada's order (binding/common.go#ensureWork): revise replicas, split Job
 * completions, apply overrides, prune what a member must not get, then Karmada's and Flotilla's labels and annotations.
 * `sourceCommit`: the output branch's stamp (changedText.ts), given by a render so that the manifest it writes
 * is built once rather than copied again to be stamped.
 */
export function renderWorkManifest(
  p: WorkSource,
  target: TargetCluster,
  cluster: Cluster,
  model: ConfigModel,
  sourceCommit?: string,
): WorkManifest {
  const ref = p.template.ref;
  let m = memberBaseOf(p.template);
  const custom = customizationFor(interpretersOf(model), p.template.manifest);
  const spec = p.binding?.spec;
  if (isWorkload({ replicas: spec?.replicas ?? 0, replicaRequirements: spec?.replicaRequirements !== undefined }))
    m = reviseReplicas(m, target.replicas, custom);
  const completions = (p.template.manifest.spec as { completions?: number } | undefined)?.completions;
  const divided = p.policy?.object.spec.placement?.replicaScheduling?.replicaSchedulingType === 'Divided';
  // needReviseJobCompletions: a Job whose binding has replicas (parallelism) and is Divided.
  if (
    ref.kind === 'Job' &&
    (spec?.replicas ?? 0) > 0 &&
    divided &&
    typeof completions === 'number' &&
    p.clusters.length > 0
  ) {
    const uid = (p.template.manifest.metadata as { uid?: string } | undefined)?.uid ?? '';
    const split = divideByWebster(
      completions,
      p.clusters.map((c) => ({ name: c.name, weight: c.replicas })),
      uid,
    );
    m = reviseJobCompletions(m, split.find((c) => c.name === target.name)?.replicas ?? 0);
  }
  // Karmada's detector settles the template's claim keys before any override runs: read from the template, not from
  // what an override made of one cluster's copy (and so the same on every cluster, as workLabels' cache assumes).
  const superseded =
    p.binding &&
    supersededClaimKeys(
      p.binding,
      p.template.labels,
      (p.template.manifest.metadata as { annotations?: Record<string, string> } | undefined)?.annotations,
    );
  const policies = overridesFor(p.template, model);
  const claim = policies.length > 0 && p.binding ? templateClaimOf(p.binding) : undefined;
  const claimed = claim ? withTemplateClaim(m, claim, superseded) : m;
  // No candidate policy: nothing to apply, and no copy to make (most templates, on most clusters).
  const overridden =
    policies.length === 0
      ? { ok: true as const, manifest: m, applied: [], refused: [] }
      : // The template's namespace as the model knows it: a cluster-scoped custom kind has none (its CRD says so), where
        // the manifest alone would read as the default namespace and rank ClusterOverridePolicies by a selector on it.
        applyOverrides(claimed, cluster, policies, { ...overrideTargetOf(claimed), namespace: ref.namespace });
  if (!overridden.ok) {
    return {
      manifest: undefined,
      problems: [
        {
          ...atTemplate(
            p.template,
            `${overridden.policy.kind} ${overridden.policy.namespace ? `${overridden.policy.namespace}/` : ''}${overridden.policy.name} rule ${overridden.ruleIndex} (${overridden.overrider}) failed on ${describeRef(ref)} for cluster ${target.name}: ${overridden.message}`,
          ),
          code: 'OVERRIDE_FAILED',
          severity: 'error',
          fix: `correct the ${overridden.overrider} of that rule; until then ${target.name} keeps its previous ${ref.kind}`,
        },
      ],
    };
  }
  const problems =
    overridden.refused.length === 0
      ? NO_PROBLEMS
      : overridden.refused.map((r) => refusedOverrideProblem(r, p.template, model));
  const before = m;
  // Karmada prunes when it writes the Work (ctrlutil/work.go CreateOrUpdateWork), after the overrides: a field an
  // override adds that a member must not get (a Job's ttlSecondsAfterFinished, a Service's clusterIP) is dropped too.
  const overriddenManifest =
    overridden.manifest === m || overridden.manifest === claimed
      ? m
      : pruneForMember(claim ? withoutTemplateClaim(overridden.manifest, claim, m) : overridden.manifest);
  m = custom ? customRetain(custom, overriddenManifest) : overriddenManifest;
  // Nothing after the template may make this another object: it would be written under the template's path.
  const changed = identityChanges(before, m);
  if (changed.length > 0) {
    return {
      manifest: undefined,
      problems: [
        ...problems,
        {
          ...atTemplate(
            p.template,
            `${describeRef(ref)} would reach ${target.name} as another object (${describeIdentityChanges(changed)}); the template's identity is kept by refusing the manifest`,
          ),
          code: 'OVERRIDE_FAILED',
          severity: 'error',
          fix: `remove what changes ${changed.map((c) => c.field).join(' and ')} (a retain or replica customization); until then ${target.name} keeps its previous ${ref.kind}`,
        },
      ],
    };
  }
  const meta = { ...((m.metadata ?? {}) as Record<string, unknown>) };
  const ownLabels = stringMapOf(meta.labels);
  const ownAnnotations = stringMapOf(meta.annotations);
  const labels = workLabels(p.template, ownLabels, p.binding, superseded);
  const annotations: Record<string, string> = { ...ownAnnotations };
  for (const key of superseded?.annotations ?? []) delete annotations[key];
  if (p.binding) {
    if (p.binding.kind === 'ResourceBinding') {
      annotations['resourcebinding.karmada.io/namespace'] = p.binding.metadata.namespace ?? '';
      annotations['resourcebinding.karmada.io/name'] = p.binding.metadata.name;
    } else {
      annotations['clusterresourcebinding.karmada.io/name'] = p.binding.metadata.name;
    }
    // The claim's annotations are the template's in Karmada (a policy's, or a MultiClusterService's).
    for (const [k, v] of templateClaimOf(p.binding).annotations) annotations[k] = v;
    // The object's own annotation wins over the policy (binding/common.go#mergeConflictResolution), as the overrides
    // for this cluster leave it: Karmada reads the workload after applying them.
    const own = annotations[CONFLICT_RESOLUTION];
    annotations[CONFLICT_RESOLUTION] =
      own === 'overwrite' || own === 'abort'
        ? own
        : p.binding.spec.conflictResolution === 'Overwrite'
          ? 'overwrite'
          : 'abort';
  }
  // Namespace sync (no binding) sets none: ctrlutil.CreateOrUpdateWork copies one only from the Work's own annotations,
  // and namespace_sync_controller's Work has only the applied overrides there. The Namespace's own stays as written,
  // and the applier, as Karmada's objectwatcher, reads no annotation as abort.
  annotations['work.karmada.io/namespace'] = `karmada-es-${target.name}`;
  annotations['work.karmada.io/name'] = workNameOf(p.template);
  // Last, as Karmada's SetLabelsAndAnnotationsForWorkload: the Work's id, then the keys of what the manifest sets,
  // which the member keeps apart from what others add there.
  annotations[MANAGED_ANNOTATIONS] = managedAnnotationKeys(p.template, annotations);
  meta.labels = { ...labels, [WORK_PERMANENT_ID_LABEL]: permanentId(`work/${target.name}/${refKey(ref)}`) };
  annotations[MANAGED_LABELS] = managedLabelKeys(labels);
  // The Work's own (workOnlyAnnotations.ts): after the managed keys are recorded, as they are not the manifest's.
  if (overridden.applied.length > 0) {
    const cops = appliedOverridesAnnotation(overridden.applied.filter((a) => a.kind === 'ClusterOverridePolicy'));
    const ops = appliedOverridesAnnotation(overridden.applied.filter((a) => a.kind === 'OverridePolicy'));
    if (cops !== undefined) annotations[APPLIED_CLUSTER_OVERRIDES_ANNOTATION] = cops;
    if (ops !== undefined) annotations[APPLIED_OVERRIDES_ANNOTATION] = ops;
  }
  if (sourceCommit !== undefined) annotations[SOURCE_COMMIT_ANNOTATION] = sourceCommit;
  meta.annotations = annotations;
  return { manifest: { ...m, metadata: meta }, problems };
}

/**
 * The labels or annotations Karmada merges its own into (Unstructured.GetLabels, GetAnnotations: NestedStringMap). An
 * override can leave something else there (a plaintext add of a string at /metadata/annotations, of a number under
 * it): Karmada then reads nothing and the manifest gets Karmada's keys alone.
 */
function stringMapOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.values(value).every((v) => typeof v === 'string') ? (value as Record<string, string>) : undefined;
}

const CONFLICT_RESOLUTION = 'work.karmada.io/conflict-resolution';

/**
 * RecordManagedAnnotations: every annotation key, both record keys included, sorted and comma-joined. A template's
 * manifests mostly have the same keys on every cluster (only an override may add one): sorted again only when they
 * differ from the last cluster's.
 */
const annotationKeysCache = new WeakMap<Template, { keys: string[]; joined: string }>();
function managedAnnotationKeys(t: Template, annotations: Record<string, string>): string {
  const keys = Object.keys(annotations);
  const known = annotationKeysCache.get(t);
  if (known && known.keys.length === keys.length && known.keys.every((k, i) => k === keys[i])) return known.joined;
  const joined = [...new Set([MANAGED_ANNOTATIONS, MANAGED_LABELS, ...keys])].sort(byCodeUnit).join(',');
  annotationKeysCache.set(t, { keys, joined });
  return joined;
}

/** RecordManagedLabels of labels plus the Work's id: the same keys on every cluster, so joined once per label set. */
const labelKeysCache = new WeakMap<Record<string, string>, string>();
function managedLabelKeys(labels: Record<string, string>): string {
  let keys = labelKeysCache.get(labels);
  if (keys === undefined)
    labelKeysCache.set(
      labels,
      (keys = [...new Set([...Object.keys(labels), WORK_PERMANENT_ID_LABEL])].sort(byCodeUnit).join(',')),
    );
  return keys;
}

/**
 * One error per policy rule and template, at the policy (the caller reports it once, not per cluster): the rule was
 * not applied, so each cluster gets the template under its own identity, with the policy's other rules.
 */
function refusedOverrideProblem(refusal: RefusedOverride, template: Template, model: ConfigModel): Problem {
  const { policy, ruleIndex, changes } = refusal;
  const source = model.overridePolicies.find((o) => o.object === policy)?.source ?? template.source;
  const name = `${policy.kind} ${policy.metadata.namespace && policy.kind === 'OverridePolicy' ? `${policy.metadata.namespace}/` : ''}${policy.metadata.name}`;
  const rule = ruleIndex < 0 ? 'spec.overriders' : `spec.overrideRules[${ruleIndex}]`;
  return {
    ...source,
    code: 'OVERRIDE_FAILED',
    severity: 'error',
    message: `${name} ${rule} would change the identity of ${describeRef(template.ref)} (${describeIdentityChanges(changes)}): that rule is not applied`,
    fix: `remove the overriders of ${rule} that write ${changes.map((c) => c.field).join(', ')}: an override may change what an object holds, not which object it is; to place another object, add its own template`,
    data: { policy: name, ruleIndex, template: refKey(template.ref), changes },
  };
}

function describeIdentityChanges(changes: readonly IdentityChange[]): string {
  const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v));
  return changes.map((c) => `${c.field} ${show(c.from)} → ${show(c.to)}`).join(', ');
}

/**
 * The manifest's labels: its own, the binding's, and Karmada's managed label. The same on every cluster whose manifest
 * kept the template's labels (no override changed them): made once per template and shared by those manifests, which
 * nothing modifies (and whose text then lays them out once: manifestYaml's `parts`).
 */
const labelsCache = new WeakMap<
  Template,
  { own: Record<string, string> | undefined; binding: ResourceBinding | undefined; labels: Record<string, string> }
>();
function workLabels(
  t: Template,
  own: Record<string, string> | undefined,
  binding: ResourceBinding | undefined,
  superseded: { labels: readonly string[] } | undefined,
): Record<string, string> {
  const known = labelsCache.get(t);
  if (known && known.own === own && known.binding === binding) return known.labels;
  const labels: Record<string, string> = { ...(own ?? {}) };
  for (const key of superseded?.labels ?? []) delete labels[key];
  // What marks a binding as a dependency of others, or as a MultiClusterService's, stays on the binding (Karmada's
  // mergeLabel copies its id only); the claim is the template's.
  if (binding) {
    for (const [k, v] of templateClaimOf(binding).labels) labels[k] = v;
    for (const [k, v] of Object.entries(binding.metadata.labels ?? {}))
      if (!k.startsWith(DEPENDED_BY_LABEL_PREFIX) && k !== BINDING_MANAGED_BY_LABEL) labels[k] = v;
  }
  labels[MANAGED_LABEL] = 'true';
  // Kept for the template's own labels only: a cluster whose override changed them does not displace them.
  if (own === (prunedFor(t).metadata as { labels?: unknown } | undefined)?.labels)
    labelsCache.set(t, { own, binding, labels });
  return labels;
}

/** The Work's name (the same on every cluster): hashed once per template, not once per manifest. */
const workNames = new WeakMap<Template, string>();
function workNameOf(t: Template): string {
  let name = workNames.get(t);
  if (name === undefined) workNames.set(t, (name = workName(t.ref.kind, t.ref.name, t.ref.namespace)));
  return name;
}

/**
 * The template as every member gets it before per-cluster changes, made once per template rather than
 * once per cluster. Shared between clusters: each later step returns new objects and never mutates it.
 */
const prunedCache = new WeakMap<Template, Record<string, unknown>>();
function prunedFor(t: Template): Record<string, unknown> {
  let pruned = prunedCache.get(t);
  if (!pruned) prunedCache.set(t, (pruned = pruneForMember(t.manifest)));
  return pruned;
}

/** prunedFor with its identity laid out as members get it: the same for every cluster, so made once per template. */
const memberBaseCache = new WeakMap<Template, Record<string, unknown>>();
function memberBaseOf(t: Template): Record<string, unknown> {
  let m = memberBaseCache.get(t);
  if (m) return m;
  m = prunedFor(t);
  const ref = t.ref;
  // name and namespace first, as kubectl prints them; the rest keeps the template's order.
  if (ref.namespace) {
    const metadata: Record<string, unknown> = { name: ref.name, namespace: ref.namespace, ...(m.metadata as object) };
    // An empty or null namespace (a chart's unset `namespace: {{ .Values.namespaceOverride }}`) is the one the API
    // server fills in from the request, so the template Karmada stores holds it; kept empty, the member would put
    // the object in its default namespace, not where it is placed.
    metadata.namespace = ref.namespace;
    m = { ...m, metadata };
  }
  // A cluster-scoped object has no namespace, whatever its source wrote (a chart's release namespace, kustomize's
  // namespace: on a custom kind it does not know): the API server drops it, Argo CD clears it (NormalizeTargetObjects).
  else if ((m.metadata as { namespace?: unknown } | undefined)?.namespace !== undefined) {
    const { namespace: _, ...metadata } = m.metadata as Record<string, unknown>;
    m = { ...m, metadata };
  }
  memberBaseCache.set(t, m);
  return m;
}

/**
 * The override policies that can touch this template, found once per template instead of once per
 * manifest: with many OverridePolicies, matching every one for every cluster dominated rendering.
 * A superset is fine — applyOverrides makes the exact decision.
 */
const overrideCache = new WeakMap<Template, OverridePolicy[]>();
function overridesFor(t: Template, model: ConfigModel): OverridePolicy[] {
  let found = overrideCache.get(t);
  if (!found) {
    const inScope = policiesInScope(model.overridePolicies, t.ref.namespace, OVERRIDE_SCOPE).map((o) => o.object);
    const template = { ...t.ref, labels: t.labels };
    const relabelers = relabelersOf(model);
    found = inScope.filter((o) => overrideMayApply(o, template, relabelers));
    overrideCache.set(t, found);
  }
  return found;
}

/** The ClusterOverridePolicies that may change a template's labels, and so which OverridePolicies select it: once per model. */
const relabelerCache = new WeakMap<ConfigModel, OverridePolicy[]>();
function relabelersOf(model: ConfigModel): OverridePolicy[] {
  let found = relabelerCache.get(model);
  if (!found)
    relabelerCache.set(model, (found = labelRewritingClusterOverrides(model.overridePolicies.map((o) => o.object))));
  return found;
}

/** A ClusterOverridePolicy applies in every namespace; an OverridePolicy in its own ('default' when unset). */
const OVERRIDE_SCOPE: PolicyScope<OverridePolicy> = {
  clusterWide: (o) => o.kind === 'ClusterOverridePolicy',
  namespaceOf: (o) => o.metadata.namespace ?? 'default',
};

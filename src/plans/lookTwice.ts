// Changes an operator must look at twice before merging: what grants cluster-wide power, what reaches into the
// members' own system namespaces, what takes over objects that already exist on a member, and Secrets. None of them
// is wrong in itself, so they are warnings in validate and a section of plan's summary, never errors.
import { atTemplate } from '../api/templatePlace.ts';
import { describeRef, groupOf, type ObjectRef } from '../api/kinds.ts';
import { isSkippedNamespace, skipReason } from '../bindings/matchPolicy.ts';
import type { ConfigModel } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const CONFLICT_ANNOTATION = 'work.karmada.io/conflict-resolution';

/** Why this object deserves a second look; empty when it does not. `manifest` is the template or a rendered manifest. */
export function lookTwiceReasons(
  ref: ObjectRef,
  manifest: Record<string, unknown>,
  labels: Readonly<Record<string, string>> = {},
): string[] {
  const reasons: string[] = [];
  const group = groupOf(ref.apiVersion);
  if (group === RBAC_GROUP && (ref.kind === 'ClusterRole' || ref.kind === 'ClusterRoleBinding'))
    reasons.push(`cluster-wide RBAC (${ref.kind})`);
  if (group === RBAC_GROUP && (ref.kind === 'RoleBinding' || ref.kind === 'ClusterRoleBinding')) {
    const roleRef = (manifest.roleRef ?? {}) as { kind?: unknown; name?: unknown };
    if (roleRef.kind === 'ClusterRole' && roleRef.name === 'cluster-admin')
      reasons.push('binds the cluster-admin ClusterRole');
  }
  const namespace = ref.namespace || (ref.kind === 'Namespace' && ref.apiVersion === 'v1' ? ref.name : '');
  if (namespace && isSkippedNamespace(namespace)) {
    const skipped = skipReason({ ref, labels });
    reasons.push(
      `in the member's system namespace ${namespace}${skipped ? ': Karmada never propagates it, and neither does Flotilla' : ''}`,
    );
  } else if (skipReason({ ref, labels })?.startsWith('reserved')) {
    reasons.push('a reserved object Karmada never propagates');
  }
  const annotations = (manifest.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations ?? {};
  if (annotations[CONFLICT_ANNOTATION] === 'overwrite')
    reasons.push(`${CONFLICT_ANNOTATION}: overwrite (takes over an object of the same name already on the member)`);
  if (ref.kind === 'Secret' && ref.apiVersion === 'v1') reasons.push('a Secret');
  return reasons;
}

/** validate's warnings: one per template with something to look at twice, and one per policy that overwrites. */
export function lookTwiceProblems(model: Pick<ConfigModel, 'templates' | 'propagationPolicies'>): Problem[] {
  const problems: Problem[] = [];
  // Every variant scoped units output for an object: each reaches its own clusters, so each is read, at its unit.
  for (const t of [...model.templates.values()].flatMap((t) => t.variants?.map((v) => ({ ...v, ref: t.ref })) ?? [t])) {
    const reasons = lookTwiceReasons(t.ref, t.manifest, t.labels);
    if (reasons.length === 0) continue;
    // An object in kube-* never reaches a member: what it is for (a leader-election Role, an APIService's backend)
    // is then missing there, which the reviewer should know how to fix.
    const dropped = reasons.some((r) => r.includes('Karmada never propagates it'));
    problems.push({
      // A unit's object at the file its tool named (the chart's template, the kustomization's resource), not the
      // unit's marker: that is what the reviewer opens.
      ...atTemplate(t, `${describeRef(t.ref)}: ${reasons.join('; ')}`),
      code: 'LOOK_TWICE',
      severity: 'warning',
      fix: dropped
        ? `nothing to fix if the members have it already; otherwise move it out of ${t.ref.namespace || t.ref.name} (a chart's or kustomization's namespace setting), or create it on each member, as the objects that rely on it will not find it there`
        : 'nothing to fix if intended; a reviewer should check who gains what on every cluster it reaches',
    });
  }
  for (const p of model.propagationPolicies) {
    if (p.object.spec.conflictResolution !== 'Overwrite') continue;
    problems.push({
      ...p.source,
      code: 'LOOK_TWICE',
      severity: 'warning',
      message: `${p.object.kind} ${p.object.metadata.namespace ? `${p.object.metadata.namespace}/` : ''}${p.object.metadata.name} sets conflictResolution: Overwrite: what it places takes over objects of the same name already on the members`,
      fix: 'nothing to fix if intended; use Abort (the default) unless those objects are meant to be adopted',
    });
  }
  return problems;
}

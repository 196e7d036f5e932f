import {
  forbidden,
  goStringMapText,
  invalid,
  isObject,
  isSet,
  type Json,
  type KubeViolation,
  list,
} from './fieldViolations.ts';
import { semanticEqual } from './semanticEqual.ts';

// What kube-apiserver 1.32 refuses in an update of a Pod (pkg/apis/core/validation ValidatePodUpdate), after the new
// object's own validation: a pod's spec is fixed at creation except its containers' images, a shorter
// activeDeadlineSeconds, added tolerations (or another tolerationSeconds), removed scheduling gates and, while gated,
// added nodeSelector entries. A chart upgrade that changes a bare Pod's command fails on a real member, and so it does
// on the emulator. InPlacePodVerticalScaling is alpha and off in 1.32, so resources are fixed too. Both sides are
// defaulted already.

const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

const MAX_INT32 = 2147483647;

/** The update's refusals, in ValidatePodUpdate's order; empty when it changes only what a pod may change. */
export function podUpdateViolations(pod: Json, previous: Json): KubeViolation[] {
  const spec = isObject(pod?.spec) ? pod.spec : {};
  const before = isObject(previous?.spec) ? previous.spec : {};
  for (const kind of ['containers', 'initContainers'])
    if (list(spec[kind]).length !== list(before[kind]).length)
      return [forbidden(['spec', kind], 'pod updates may not add or remove containers')];
  const errors: KubeViolation[] = [];
  const deadline = spec.activeDeadlineSeconds;
  const deadlineBefore = before.activeDeadlineSeconds;
  if (isSet(deadline)) {
    if (typeof deadline === 'number' && (deadline < 0 || deadline > MAX_INT32))
      return [invalid(['spec', 'activeDeadlineSeconds'], deadline, `must be between 0 and ${MAX_INT32}, inclusive`)];
    if (isSet(deadlineBefore) && deadlineBefore < deadline)
      return [invalid(['spec', 'activeDeadlineSeconds'], deadline, 'must be less than or equal to previous value')];
  } else if (isSet(deadlineBefore))
    errors.push(
      invalid(['spec', 'activeDeadlineSeconds'], null, 'must not update from a positive integer to nil value', 'null'),
    );
  const tolerations = list(spec.tolerations);
  if (!list(before.tolerations).every((old) => tolerations.some((t) => sameButSeconds(old, t))))
    errors.push(
      forbidden(['spec', 'tolerations'], 'existing toleration can not be modified except its tolerationSeconds'),
    );
  const gatesBefore = new Set(list(before.schedulingGates).map((g) => g?.name));
  list(spec.schedulingGates).forEach((gate, i) => {
    if (!gatesBefore.has(gate?.name))
      errors.push(
        forbidden(
          ['spec', 'schedulingGates', i, 'name'],
          `only deletion is allowed, but found new scheduling gate '${String(gate?.name)}'`,
        ),
      );
  });
  if (semanticEqual(spec, before)) return errors;

  const munged: Json = { ...spec };
  for (const kind of ['containers', 'initContainers'])
    if (isSet(spec[kind]))
      munged[kind] = list(spec[kind]).map((c, i) => ({ ...c, image: list(before[kind])[i]?.image }));
  munged.activeDeadlineSeconds = deadlineBefore;
  munged.schedulingGates = before.schedulingGates;
  munged.tolerations = before.tolerations;
  const grace = before.terminationGracePeriodSeconds;
  if (isSet(grace) && grace < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = grace;
  if (list(before.schedulingGates).length > 0) {
    // A gated pod is still to be scheduled: it may gain node selector entries, and its node affinity may change.
    const selector = isObject(spec.nodeSelector) ? spec.nodeSelector : {};
    const selectorBefore = isObject(before.nodeSelector) ? before.nodeSelector : {};
    if (Object.entries(selectorBefore).some(([k, v]) => selector[k] !== v))
      errors.push(
        invalid(
          ['spec', 'nodeSelector'],
          selector,
          'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
          goStringMapText(spec.nodeSelector),
        ),
      );
    munged.nodeSelector = before.nodeSelector;
    const nodeAffinity = isObject(before.affinity) ? before.affinity.nodeAffinity : undefined;
    if (!semanticEqual(nodeAffinity, isObject(munged.affinity) ? munged.affinity.nodeAffinity : undefined))
      munged.affinity = { ...(isObject(munged.affinity) ? munged.affinity : {}), nodeAffinity };
  }
  if (!semanticEqual(munged, before))
    errors.push(
      forbidden(['spec'], `pod updates may not change fields other than ${UPDATABLE}\n${specDiff(before, munged)}`),
    );
  return errors;
}

/** validateOnlyAddedTolerations' test: the same toleration, whatever its tolerationSeconds. */
function sameButSeconds(old: Json, next: Json): boolean {
  return ['key', 'operator', 'value', 'effect'].every((k) => String(old?.[k] ?? '') === String(next?.[k] ?? ''));
}

/**
 * The diff kube-apiserver appends (go-cmp's of core.PodSpec), told field by field at the spec's top level: which fields
 * the update changed, old then new. Go's field names are the JSON ones capitalised; values are shown as JSON.
 */
function specDiff(before: Json, after: Json): string {
  const lines = ['  core.PodSpec{'];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (semanticEqual(before[key], after[key], key)) continue;
    const name = key.charAt(0).toUpperCase() + key.slice(1);
    if (isSet(before[key])) lines.push(`- \t${name}: ${JSON.stringify(before[key])},`);
    if (isSet(after[key])) lines.push(`+ \t${name}: ${JSON.stringify(after[key])},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

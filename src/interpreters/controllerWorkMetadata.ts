// The labels and annotations a member object gets when a Karmada controller, not a Git template, is behind it: the
// Work ctrlutil.CreateOrUpdateWork writes (pkg/controllers/ctrlutil/work.go), and, when the object reaches the member
// as a dependency, the attached binding's as binding/common.go ensureWork merges them (mergeLabel, mergeAnnotations,
// mergeConflictResolution). Pure: the applier's derived objects, the dispatched slices and the federated quotas'
// ResourceQuotas are built with it.
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import { refKey, type ObjectRef } from '../api/kinds.ts';
import { bindingName, permanentId } from '../names/bindingName.ts';
import { workName } from '../names/workName.ts';

export const WORK_PERMANENT_ID_LABEL = 'work.karmada.io/permanent-id';
const BINDING_PERMANENT_ID_LABEL = 'resourcebinding.karmada.io/permanent-id';
export const MANAGED_ANNOTATIONS = 'resourcetemplate.karmada.io/managed-annotations';
export const MANAGED_LABELS = 'resourcetemplate.karmada.io/managed-labels';

/** The attached ResourceBinding an object follows its parent through (dependencies_distributor.go buildAttachedBinding). */
export interface AttachedBindingOf {
  /** The parent binding's spec.conflictResolution, which buildAttachedBinding copies: Overwrite, Abort or none. */
  conflictResolution: string | undefined;
}

/**
 * `own` (the labels and annotations the controller gave the object) with the Work's for `cluster`: its managed label,
 * the attached binding's permanent id, name and namespace and conflict resolution when `binding` is given (the object
 * has none of its own, so the binding's Overwrite reads overwrite, anything else abort), the template's UID when `uid`
 * is given (an object built in memory has ''; one the control plane stores has an UID Git cannot know, left out as
 * for a Git template), the Work's name (after the object, or `workOf`'s, in the cluster's execution namespace) and
 * permanent id, then the keys of both, as SetLabelsAndAnnotationsForWorkload records them.
 */
export function controllerWorkMetadata(
  cluster: string,
  ref: ObjectRef,
  own: { labels: Record<string, string>; annotations: Record<string, string> },
  opts: { binding?: AttachedBindingOf; uid?: string; workOf?: { kind: string; name: string } } = {},
): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = { ...own.labels };
  const annotations: Record<string, string> = { ...own.annotations };
  if (opts.binding) {
    labels[BINDING_PERMANENT_ID_LABEL] = permanentId(`binding/${refKey(ref)}`);
    annotations['resourcebinding.karmada.io/namespace'] = ref.namespace ?? '';
    annotations['resourcebinding.karmada.io/name'] = bindingName(ref.kind, ref.name);
  }
  labels[MANAGED_LABEL] = 'true';
  labels[WORK_PERMANENT_ID_LABEL] = permanentId(`work/${cluster}/${refKey(ref)}`);
  if (opts.uid !== undefined) annotations['resourcetemplate.karmada.io/uid'] = opts.uid;
  const work = opts.workOf ?? ref;
  annotations['work.karmada.io/namespace'] = `karmada-es-${cluster}`;
  annotations['work.karmada.io/name'] = workName(work.kind, work.name, ref.namespace);
  if (opts.binding)
    annotations['work.karmada.io/conflict-resolution'] =
      opts.binding.conflictResolution === 'Overwrite' ? 'overwrite' : 'abort';
  annotations[MANAGED_ANNOTATIONS] = [MANAGED_ANNOTATIONS, MANAGED_LABELS, ...Object.keys(annotations)]
    .sort(byCodeUnit)
    .join(',');
  annotations[MANAGED_LABELS] = Object.keys(labels).sort(byCodeUnit).join(',');
  return { labels, annotations };
}

/** Go's sort.Strings: by UTF-8 bytes, which for these keys is by UTF-16 code unit. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

import { MANAGED_ANNOTATIONS, MANAGED_LABELS } from '../interpreters/controllerWorkMetadata.ts';

type Obj = Record<string, unknown>;
type Meta = { [k: string]: unknown; labels?: unknown; annotations?: unknown };

/**
 * What Karmada's object watcher keeps of the member's object when it updates it (objectwatcher.go
 * retainClusterFields): its resourceVersion (the update is conditional on it), finalizers and ownerReferences (the
 * member's controllers set them), and the labels and annotations the manifest lacks, unless the manifest's record
 * (`resourcetemplate.karmada.io/managed-labels`, `managed-annotations`, util.RetainLabels and RetainAnnotations)
 * says Karmada put them there and the template dropped them since. Everything else is the manifest's. Pure: a new
 * object, run before the kind's Retain.
 */
export function retainClusterFields(desired: Obj, observed: Obj): Obj {
  const want = (desired.metadata ?? {}) as Meta;
  const live = (observed.metadata ?? {}) as Meta;
  const meta: Meta = { ...want };
  for (const field of ['resourceVersion', 'finalizers', 'ownerReferences']) {
    if (live[field] === undefined) delete meta[field];
    else meta[field] = live[field];
  }
  const liveAnnotations = stringMap(live.annotations);
  const labels = retained(stringMap(want.labels), stringMap(live.labels), liveAnnotations[MANAGED_LABELS]);
  const annotations = retained(stringMap(want.annotations), liveAnnotations, liveAnnotations[MANAGED_ANNOTATIONS]);
  if (labels) meta.labels = labels;
  if (annotations) meta.annotations = annotations;
  return { ...desired, metadata: meta };
}

/** The desired keys, then each live key neither desired nor recorded as one Karmada set before; undefined when empty. */
function retained(
  desired: Record<string, string>,
  live: Record<string, string>,
  record: string | undefined,
): Record<string, string> | undefined {
  const dropped = new Set((record ?? '').split(','));
  const out = { ...desired };
  for (const [k, v] of Object.entries(live)) if (!dropped.has(k) && !Object.hasOwn(out, k)) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

function stringMap(v: unknown): Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};
}

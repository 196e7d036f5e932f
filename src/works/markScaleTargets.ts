import { refKey } from '../api/kinds.ts';
import type { Template } from '../api/model.ts';
import { RETAIN_REPLICAS_LABEL, RETAIN_REPLICAS_VALUE } from '../interpreters/retainForMember.ts';

// Karmada's hpaScaleTargetMarker (pkg/controllers/hpascaletargetmarker): a propagated HorizontalPodAutoscaler marks
// the resource template it scales with resourcetemplate.karmada.io/retain-replicas: "true", so the members' Retain
// keeps the replicas their HPA set instead of putting the template's back. Karmada patches the template in the
// control plane; Flotilla never writes to the user's branch, so the mark is made here, on the rendered manifests,
// where the rendered branch shows it and the applier's Retain (interpreters/retainForMember.ts) reads it.

/**
 * Every apiVersion the API server serves HorizontalPodAutoscalers under: Karmada watches autoscaling/v2, and the
 * server converts an object written in any of them, so each one's scaleTargetRef counts.
 */
const HPA_API_VERSIONS: ReadonlySet<string> = new Set([
  'autoscaling/v1',
  'autoscaling/v2',
  'autoscaling/v2beta2',
  'autoscaling/v2beta1',
]);

/**
 * The refKey of the object an HPA template scales (spec.scaleTargetRef, in the HPA's own namespace), or undefined
 * for anything that is not an HPA or names no complete target.
 */
export function scaleTargetOf(template: Pick<Template, 'ref' | 'manifest'>): string | undefined {
  if (template.ref.kind !== 'HorizontalPodAutoscaler' || !HPA_API_VERSIONS.has(template.ref.apiVersion))
    return undefined;
  const target = (
    template.manifest.spec as { scaleTargetRef?: { apiVersion?: unknown; kind?: unknown; name?: unknown } } | undefined
  )?.scaleTargetRef;
  const { apiVersion, kind, name } = target ?? {};
  if (
    typeof apiVersion !== 'string' ||
    typeof kind !== 'string' ||
    typeof name !== 'string' ||
    !apiVersion ||
    !kind ||
    !name
  )
    return undefined;
  return refKey({ apiVersion, kind, namespace: template.ref.namespace, name });
}

/**
 * Target refKey → the refKeys of the propagated HPAs that scale it, sorted. `propagated` says whether a policy
 * claimed an HPA (Karmada's hasBeenPropagated: the HPA carries a policy's permanent-id label).
 */
export function scaleTargets(
  hpas: Iterable<Pick<Template, 'ref' | 'manifest'>>,
  propagated: (hpa: Pick<Template, 'ref'>) => boolean,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const hpa of hpas) {
    const target = scaleTargetOf(hpa);
    if (!target || !propagated(hpa)) continue;
    out.set(target, [...(out.get(target) ?? []), refKey(hpa.ref)].sort());
  }
  return out;
}

/**
 * The template with the retain-replicas label set to "true" (util.MergeLabel: any other value is replaced), a new
 * object; the same object when it already says so.
 */
export function markScaleTarget(template: Template): Template {
  const metadata = (template.manifest.metadata ?? {}) as { labels?: Record<string, string> };
  if (metadata.labels?.[RETAIN_REPLICAS_LABEL] === RETAIN_REPLICAS_VALUE) return template;
  const labels = { ...(metadata.labels ?? {}), [RETAIN_REPLICAS_LABEL]: RETAIN_REPLICAS_VALUE };
  const marked = { ...template, manifest: { ...template.manifest, metadata: { ...metadata, labels } } };
  // Every cluster's variant is the workload the HPA scales there.
  if (template.variants)
    marked.variants = template.variants.map((v) => ({
      ...v,
      manifest: markScaleTarget({ ref: template.ref, ...v }).manifest,
    }));
  return marked;
}

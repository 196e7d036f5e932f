// The metadata Karmada's detector writes onto a resource template when a policy claims it (pkg/detector/claim.go
// AddPPClaimMetadata, AddCPPClaimMetadata; a MultiClusterService's likewise): the policy's permanent-id label and
// name/namespace annotations. The binding controller reads the template back from karmada-apiserver, so they are on
// the object the override policies see: a plaintext `add /metadata/labels/env` finds a labels map even on a template
// Git gives none. Flotilla's binding carries the same keys, but for a MultiClusterService's mark (below).
import type { ResourceBinding } from '../api/binding.ts';

type Obj = Record<string, unknown>;

export interface TemplateClaim {
  labels: readonly [string, string][];
  annotations: readonly [string, string][];
}

const isClaimKey = (key: string) =>
  key.includes('propagationpolicy.karmada.io/') || key.startsWith('multiclusterservice.karmada.io/');

/**
 * workv1alpha2.BindingManagedByLabel marks the binding a MultiClusterService made; the Service template gets
 * util.ResourceTemplateClaimedByLabel with the same value instead (mcs_controller.go
 * claimMultiClusterServiceForService, buildResourceBinding), and the Work is made from the template.
 */
export const BINDING_MANAGED_BY_LABEL = 'binding.karmada.io/managed-by';
const TEMPLATE_CLAIMED_BY_LABEL = 'resourcetemplate.karmada.io/claimed-by';

const claims = new WeakMap<ResourceBinding, TemplateClaim>();

/** The claim keys of the binding's labels and annotations (none for a dependency's attached binding). */
export function templateClaimOf(binding: ResourceBinding): TemplateClaim {
  let claim = claims.get(binding);
  if (claim === undefined) {
    const pick = (map: Record<string, string> | undefined) =>
      Object.entries(map ?? {}).filter(([key]) => isClaimKey(key));
    const managedBy = binding.metadata.labels?.[BINDING_MANAGED_BY_LABEL];
    const claimedBy: [string, string][] = managedBy === undefined ? [] : [[TEMPLATE_CLAIMED_BY_LABEL, managedBy]];
    claim = {
      labels: [...claimedBy, ...pick(binding.metadata.labels)],
      annotations: pick(binding.metadata.annotations),
    };
    claims.set(binding, claim);
  }
  return claim;
}

/** Claim keys of another claim the detector took off the template (policyClaim.ts supersededClaimKeys). */
export interface DroppedClaimKeys {
  labels: readonly string[];
  annotations: readonly string[];
}

/**
 * A copy of the manifest carrying the claim, as the template does in karmada-apiserver: without the `dropped` keys of
 * another claim it brought, which the detector took off before the binding controller reads it.
 */
export function withTemplateClaim(manifest: Obj, claim: TemplateClaim, dropped?: DroppedClaimKeys): Obj {
  if (claim.labels.length === 0 && claim.annotations.length === 0 && !dropped) return manifest;
  return {
    ...manifest,
    metadata: claimedMetadataOf(isObj(manifest.metadata) ? manifest.metadata : {}, claim, dropped),
  };
}

/**
 * The metadata with the claim's keys merged in. A template's manifests share their metadata on every cluster (only
 * the spec is revised per cluster), so it is made once per template rather than once per manifest; nothing modifies
 * it (applyOverrides copies what it changes).
 */
const claimedMetadata = new WeakMap<Obj, { claim: TemplateClaim; dropped?: DroppedClaimKeys; merged: Obj }>();
function claimedMetadataOf(metadata: Obj, claim: TemplateClaim, dropped: DroppedClaimKeys | undefined): Obj {
  const known = claimedMetadata.get(metadata);
  if (known?.claim === claim && known.dropped === dropped) return known.merged;
  const merged: Obj = { ...metadata };
  for (const [field, entries, gone] of [
    ['labels', claim.labels, dropped?.labels ?? []],
    ['annotations', claim.annotations, dropped?.annotations ?? []],
  ] as const) {
    const own = metadata[field];
    const drops = isObj(own) && gone.some((key) => Object.hasOwn(own, key));
    if (entries.length === 0 && !drops) continue;
    const map: Obj = { ...(isObj(own) ? own : {}), ...Object.fromEntries(entries) };
    for (const key of gone) delete map[key];
    merged[field] = map;
  }
  claimedMetadata.set(metadata, { claim, dropped, merged });
  return merged;
}

/**
 * The overridden manifest less the claim keys the overrides left as they were, so that they are written where the
 * binding's keys go (renderWorkManifest) and the output keeps its layout; `template` is the manifest before the claim
 * was added, whose own maps come back as they were when nothing else is left in them.
 */
export function withoutTemplateClaim(manifest: Obj, claim: TemplateClaim, template: Obj): Obj {
  if (!isObj(manifest.metadata)) return manifest;
  const before = isObj(template.metadata) ? template.metadata : {};
  const metadata: Obj = { ...manifest.metadata };
  for (const [field, entries] of [
    ['labels', claim.labels],
    ['annotations', claim.annotations],
  ] as const) {
    const map = metadata[field];
    if (entries.length === 0 || !isObj(map)) continue;
    const kept: Obj = { ...map };
    for (const [key, value] of entries) if (kept[key] === value) delete kept[key];
    if (Object.keys(kept).length > 0 || isObj(before[field])) metadata[field] = kept;
    else if (before[field] === undefined) delete metadata[field];
    else metadata[field] = before[field];
  }
  return { ...manifest, metadata };
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import type { ObjectRef } from '../api/kinds.ts';
import { dropEmptyFields } from '../api/unknownFields.ts';
import { parseQuantity } from '../quantities/parseQuantity.ts';
import { identityKey, type Inventory } from '../branches/status/inventory.ts';
import { withoutWorkOnlyAnnotations } from '../branches/rendered/workOnlyAnnotations.ts';
import { MANAGED_LABEL } from '../api/karmadaLabels.ts';
import { CONFLICT_RESOLUTION_ANNOTATION, type ApplyResult, type ConflictResolution } from './types.ts';

export interface DeliveryObject {
  path: string;
  ref: ObjectRef;
  manifest: Record<string, unknown>;
  conflictResolution: ConflictResolution;
}

export interface DeliveryPlan {
  /** Applied first: everything else may live in them or be defined by them. */
  namespaces: DeliveryObject[];
  crds: DeliveryObject[];
  rest: DeliveryObject[];
  /** Inventory entries the folder no longer holds; each is deleted only if live and labelled ours. */
  prune: ObjectRef[];
  /** Manifests that cannot be applied at all (no kind, no name): reported failed without a request. */
  invalid: ApplyResult[];
}

export const CRD_API_VERSION = 'apiextensions.k8s.io/v1';

/**
 * Sorts a cluster folder into apply phases and works out what to prune. Pure: the folder and the previous
 * inventory in, the plan out. `prune: false` (the caller could not read the whole folder) plans no deletion at all,
 * because an object missing from a partial read is not an object the user removed.
 */
export function planDelivery(input: {
  manifests: ReadonlyMap<string, unknown>;
  inventory: Inventory;
  prune: boolean;
  defaultConflictResolution?: ConflictResolution;
}): DeliveryPlan {
  const plan: DeliveryPlan = { namespaces: [], crds: [], rest: [], prune: [], invalid: [] };
  const present = new Set<string>();
  for (const [path, value] of [...input.manifests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const manifest = value as Record<string, unknown> | null;
    const meta = (manifest?.metadata ?? {}) as {
      name?: unknown;
      namespace?: unknown;
      annotations?: Record<string, string>;
    };
    const apiVersion = manifest?.apiVersion;
    const kind = manifest?.kind;
    const ref = {
      apiVersion: String(apiVersion ?? ''),
      kind: String(kind ?? ''),
      namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
      name: String(meta.name ?? ''),
    };
    if (
      !manifest ||
      typeof manifest !== 'object' ||
      typeof apiVersion !== 'string' ||
      typeof kind !== 'string' ||
      typeof meta.name !== 'string' ||
      !meta.name
    ) {
      plan.invalid.push({
        ref,
        path,
        action: 'failed',
        message: `${path} is not a Kubernetes object with apiVersion, kind and metadata.name`,
      });
      continue;
    }
    present.add(identityKey(ref));
    const annotated = meta.annotations?.[CONFLICT_RESOLUTION_ANNOTATION];
    const conflictResolution: ConflictResolution =
      annotated === 'overwrite' || annotated === 'abort' ? annotated : (input.defaultConflictResolution ?? 'abort');
    // The Work's own annotations stay on the rendered branch: a member never gets them, as under Karmada.
    const obj = { path, ref, manifest: withoutWorkOnlyAnnotations(manifest), conflictResolution };
    if (apiVersion === 'v1' && kind === 'Namespace') plan.namespaces.push(obj);
    else if (kind === 'CustomResourceDefinition' && apiVersion.startsWith('apiextensions.k8s.io/')) plan.crds.push(obj);
    else plan.rest.push(obj);
  }
  if (input.prune) {
    const seen = new Set<string>();
    for (const ref of input.inventory) {
      const key = identityKey(ref);
      if (present.has(key) || seen.has(key)) continue;
      seen.add(key);
      plan.prune.push(ref);
    }
    // Contents before containers: namespaced objects, then cluster-scoped ones, CRDs and Namespaces last.
    plan.prune.sort((a, b) => pruneRank(a) - pruneRank(b));
  }
  return plan;
}

function pruneRank(ref: ObjectRef): number {
  if (ref.kind === 'Namespace' && ref.apiVersion === 'v1') return 3;
  if (ref.kind === 'CustomResourceDefinition') return 2;
  return ref.namespace ? 0 : 1;
}

/** Labelled `karmada.io/managed=true`: an object a Karmada-style controller owns. Anything else is someone else's. */
export function isManaged(live: unknown): boolean {
  const labels = (live as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels ?? {};
  return labels[MANAGED_LABEL] === 'true';
}

/**
 * True when every field the manifest sets has that value in the live object: what server-side apply would
 * leave untouched, so the write can be skipped. Maps compare key by key (the server adds defaults, status and
 * metadata we never set); lists compare element by element with equal length, since a list we set is ours whole.
 * A field removed from the manifest is not detected here; the rendered manifests carry the
 * flotilla.io/source-commit annotation, which changes whenever the rendered object changes, so such an edit
 * still shows up as a difference. `stored` is the manifest as the member stores it (storedForm): a field it leaves
 * out there is one the member never shows at that value, so its absence from the live object is no difference.
 */
export function isSubset(desired: unknown, live: unknown, stored: unknown = desired): boolean {
  if (desired === null || typeof desired !== 'object') return sameScalar(desired, live);
  if (Array.isArray(desired)) {
    const kept = Array.isArray(stored) ? stored : desired;
    return (
      Array.isArray(live) && live.length === desired.length && desired.every((d, i) => isSubset(d, live[i], kept[i]))
    );
  }
  if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
  const l = live as Record<string, unknown>;
  const st = (stored !== null && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(desired)) {
    // An explicit null in an apply patch means "unset": it matches an absent field, and the empty struct the API
    // server writes in place of one that cannot be absent (a container's `resources: null` reads back `{}`).
    if (v === null) {
      if (l[k] !== undefined && l[k] !== null && !isEmptyCollection(l[k])) return false;
      continue;
    }
    // At its zero (`paused: false`), an omitempty field is absent from what the member returns, not changed; set to
    // something else there, it is a difference like any other.
    if (!(k in l) && !(k in st)) continue;
    if (!(k in l) || !isSubset(v, l[k], st[k])) return false;
  }
  return true;
}

/**
 * Integers in YAML may come back as numbers or strings of the same value (ports, quantities written as numbers), and
 * the API server writes every resource quantity in its canonical form: `2000m` reads back `2`, `4096Mi` `4Gi`, 0.5
 * `500m`. Only a quantity comes back changed this way, so two spellings of one quantity are the same value.
 */
function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number'))
    if (String(a) === String(b)) return true;
  if ((typeof a !== 'string' && typeof a !== 'number') || typeof b !== 'string') return false;
  const desired = parseQuantity(a);
  const live = desired && parseQuantity(b);
  return live !== undefined && desired!.num * live.den === live.num * desired!.den;
}

function isEmptyCollection(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}

/**
 * What the member stores of an apply body, for isSubset: kube-apiserver decodes a built-in kind into its Go type and
 * never writes back an omitempty field at its zero (`globalDefault: false`, `annotations: {}`, `hostNetwork: false`),
 * so a body holding one would otherwise look changed on every pass. A custom resource is kept whole.
 */
export function storedForm(body: Record<string, unknown>): Record<string, unknown> {
  const stored = structuredClone(body);
  dropEmptyFields(stored, String(body.apiVersion ?? ''), String(body.kind ?? ''));
  return stored;
}

/** The SSA body: the manifest with the fields a server owns and rejects in an apply patch removed. */
export function applyBody(manifest: Record<string, unknown>): Record<string, unknown> {
  const { status: _status, ...rest } = manifest;
  const meta = { ...((rest.metadata ?? {}) as Record<string, unknown>) };
  for (const k of ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'selfLink'])
    delete meta[k];
  return { ...rest, metadata: meta };
}

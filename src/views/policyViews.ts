// `flotilla get propagationpolicies|clusterpropagationpolicies|overridepolicies|clusteroverridepolicies|
// clustertaintpolicies`: Karmada's policies as `kubectl get` prints them against Karmada's API server, read from the
// source commit with the webhook defaults applied (what the API server would store). Columns are the CRDs' printer
// columns (pkg/apis/policy/v1alpha1 kubebuilder:printcolumn): CONFLICT-RESOLUTION, PRIORITY and AGE for the
// propagation policies; NAME and AGE (kubectl's default for a CRD without printer columns) for the others.
import type { CommitInfo } from '../commits/types.ts';
import { loadKarmadaObjects } from '../outputs/loadSource.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { commitEvents } from './commitEvents.ts';
import { describeUnstructured } from './describeUnstructured.ts';
import { karmadaFilesOfSource, type Fleet } from './readFleet.ts';
import { readFirstSeen } from './readFirstSeen.ts';

type Obj = Record<string, unknown>;

export type PolicyKind =
  | 'PropagationPolicy'
  | 'ClusterPropagationPolicy'
  | 'OverridePolicy'
  | 'ClusterOverridePolicy'
  | 'ClusterTaintPolicy';

export interface PolicyView {
  object: Obj;
  namespace: string | undefined;
  name: string;
  /** The source file that defines it. */
  file: string;
  /** When its file appeared (seconds), for AGE. */
  firstSeen?: number;
}

const NAMESPACED: ReadonlySet<PolicyKind> = new Set(['PropagationPolicy', 'OverridePolicy']);

export function isNamespacedPolicy(kind: PolicyKind): boolean {
  return NAMESPACED.has(kind);
}

/** Every policy of `kind` in the source commit, as admitted (defaults applied). */
export async function readPolicies(fleet: Fleet, kind: PolicyKind): Promise<PolicyView[]> {
  return (await readPolicyViews(fleet, kind)).views;
}

/**
 * The policies of `kind`, and the files of the commit with errors: a policy Karmada's webhook would refuse is not
 * among the views, as kube-apiserver would not have stored it, and those files say where it may be. Only the files that
 * may hold Karmada objects are read (a broken document's file among them): no template defines a policy.
 */
export async function readPolicyViews(
  fleet: Fleet,
  kind: PolicyKind,
): Promise<{ views: PolicyView[]; filesWithErrors: string[] }> {
  const model = await loadKarmadaObjects(
    fleet.repo,
    fleet.source.commit.tree,
    await karmadaFilesOfSource(fleet),
    fleet.limits,
  );
  const filesWithErrors = [...new Set(model.problems.filter((p) => p.severity === 'error').map((p) => p.file))].sort();
  const located = [...model.propagationPolicies, ...model.overridePolicies, ...model.clusterTaintPolicies].filter(
    (l) => l.object.kind === kind,
  );
  const ages = await readFirstSeen(
    fleet.repo,
    fleet.source.commit.oid,
    located.map((l) => l.source.file),
  );
  const views = located.map((l) => {
    const metadata = l.object.metadata as { name: string; namespace?: string };
    const firstSeen = ages.get(l.source.file);
    return {
      object: l.object as unknown as Obj,
      namespace: isNamespacedPolicy(kind) ? (metadata.namespace ?? 'default') : undefined,
      name: metadata.name,
      file: l.source.file,
      ...(firstSeen !== undefined ? { firstSeen } : {}),
    };
  });
  return { views, filesWithErrors };
}

/** What `get` asks (readListing's ListingQuery, the fields read here). */
interface Query {
  name?: string;
  namespace?: string;
  allNamespaces: boolean;
  now: Date;
}

/** kubectl's cell for a printer column whose JSONPath finds nothing. */
const NONE = '<none>';

/** `get <policies>`: the CRD's printer columns, in readListing's Listing shape. Pure. */
export function listPolicies(
  views: readonly PolicyView[],
  kind: PolicyKind,
  q: Query,
): { headers: string[]; rows: string[][]; objects: Obj[]; namespaced: boolean } {
  const namespaced = isNamespacedPolicy(kind);
  const namespace = q.namespace ?? 'default';
  const withNamespace = namespaced && q.allNamespaces;
  const picked = views
    .filter((v) => !namespaced || q.allNamespaces || v.namespace === namespace)
    .filter((v) => q.name === undefined || v.name === q.name)
    .sort((a, b) => `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`));
  const propagation = kind === 'PropagationPolicy' || kind === 'ClusterPropagationPolicy';
  const headers = [
    ...(withNamespace ? ['NAMESPACE'] : []),
    'NAME',
    ...(propagation ? ['CONFLICT-RESOLUTION', 'PRIORITY'] : []),
    'AGE',
  ];
  const rows = picked.map((v) => {
    const spec = (v.object.spec ?? {}) as { conflictResolution?: unknown; priority?: unknown };
    return [
      ...(withNamespace ? [v.namespace ?? ''] : []),
      v.name,
      ...(propagation
        ? [
            spec.conflictResolution === undefined ? NONE : String(spec.conflictResolution),
            spec.priority === undefined ? NONE : String(spec.priority),
          ]
        : []),
      v.firstSeen === undefined ? '<unknown>' : humanDuration(q.now.getTime() - v.firstSeen * 1000),
    ];
  });
  return { headers, rows, objects: picked.map((v) => v.object), namespaced };
}

/**
 * `describe <policy>`: what kubectl's generic describer prints for the policy Karmada's API server would store
 * (webhook defaults applied), then the commits that changed its file as its events. Pure.
 */
export function describePolicy(view: PolicyView, history: readonly CommitInfo[], now: Date): string {
  return describeUnstructured(view.object, commitEvents(history, now));
}

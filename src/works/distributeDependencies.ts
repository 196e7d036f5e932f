// Karmada's dependencies distributor (pkg/dependenciesdistributor/dependencies_distributor.go): a template that a
// propagateDeps workload requires goes wherever any such parent goes, merged with its own result, and its binding
// lists those parents in spec.requiredBy, each with a snapshot of its result, and is labelled depended-by each of
// them. A dependency no policy claims still gets a binding: the attached one, with no result of its own.
import type { ResourceBinding, TargetCluster } from '../api/binding.ts';
import { parseRefKey, refKey, WORK_API_VERSION } from '../api/kinds.ts';
import { bindingName, bindingReferenceKey, permanentId } from '../names/bindingName.ts';
import type { Customizations } from '../api/interpreterCustomization.ts';
import type { Template } from '../api/model.ts';
import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { interpretDependencies } from '../interpreters/interpretDependencies.ts';
import type { IndexEntry, IndexView } from '../branches/rendered/outputIndex.ts';

type RequiredBy = NonNullable<ResourceBinding['spec']['requiredBy']>;

/** A template this render placed (or left unplaced): its own result and its binding when a policy claimed it. */
export interface PlacedDependency {
  template: Template;
  clusters: readonly TargetCluster[];
  binding?: ResourceBinding;
}

/** A template required by parents: its result grown by their clusters, and its binding listing them. */
export interface AttachedDependency {
  /** refKeys of the parents, sorted. */
  requiredBy: string[];
  /**
   * Its own clusters plus every parent cluster it did not have, sorted by name: with the replicas of the first
   * parent's snapshot that has it (Karmada's mergeTargetClusters), 0 on a cluster a parent holds only for a graceful
   * eviction (Flotilla keeps the dependency there while the parent's copy runs; Karmada's snapshot leaves it out).
   */
  clusters: TargetCluster[];
  binding: ResourceBinding;
  /**
   * For a dependency no policy claims: where its parents' policies disagree (conflictResolution, or
   * preserveResourcesOnDeletion), in the words of Karmada's DependencyPolicyConflict event; the binding takes
   * Overwrite and preserving when any parent has them.
   */
  policyConflict?: string;
}

/** The label prefix Karmada's dependencies distributor marks a dependency's binding with, once per parent. */
export const DEPENDED_BY_LABEL_PREFIX = 'resourcebinding.karmada.io/depended-by-';

/**
 * For every placed template that some parent requires: the parents are the previous ones this render left alone
 * (previousIndex.parentsOf, minus those the render set anew) plus every entry this render set that lists the
 * template in deps. A parent's clusters are read from its new entry when the render set one, else the previous;
 * a parent that is itself a dependency counts with its own result (its entry's `own`), not with the clusters its
 * parents add. Its snapshot in requiredBy is those clusters but the ones it holds only for a graceful eviction, with
 * the replicas its result gives each (placed now, or its entry's `replicas`). Templates nobody requires are not in
 * the result.
 */
export async function distributeDependencies(
  placed: ReadonlyMap<string, PlacedDependency>,
  changes: ReadonlyMap<string, IndexEntry | null>,
  previousIndex: IndexView,
  /** Whether the template may go to the cluster: a scoped unit's object follows its parents only within its scope. */
  mayGo: (template: Template, cluster: string) => boolean = () => true,
): Promise<Map<string, AttachedDependency>> {
  const entryOf = (key: string) => (changes.has(key) ? (changes.get(key) ?? undefined) : previousIndex.template(key));
  const newParents = new Map<string, string[]>();
  for (const [key, entry] of changes) {
    for (const dep of entry?.deps ?? []) {
      const list = newParents.get(dep);
      if (list) list.push(key);
      else newParents.set(dep, [key]);
    }
  }
  const attached = new Map<string, AttachedDependency>();
  // A parent that is itself a dependency counts with its own result only: what its own parents add to it is not in
  // its binding's spec.clusters, so its dependencies do not follow it there.
  const clustersOf = (key: string) => {
    const entry = entryOf(key)!;
    return entry.own ?? entry.clusters;
  };
  /** The parent's result as its binding has it: what Karmada's buildAttachedBinding copies into requiredBy. */
  const snapshotOf = (key: string, clusters: readonly string[]): TargetCluster[] => {
    const entry = entryOf(key)!;
    const evicting = new Set(entry.evicting ?? []);
    const own = placed.get(key)?.clusters;
    const replicasOn = own
      ? new Map(own.map((c) => [c.name, c.replicas ?? 0]))
      : new Map(entry.clusters.map((c, i) => [c, entry.replicas?.[i] ?? 0]));
    return clusters.filter((c) => !evicting.has(c)).map((name) => ({ name, replicas: replicasOn.get(name) ?? 0 }));
  };
  // Every template a cold render places: the event loop gets a turn now and then.
  const turns = eventLoopTurns();
  for (const [key, p] of placed) {
    if (turns.due()) await turns.give();
    const parents = [...previousIndex.parentsOf(key).filter((k) => !changes.has(k)), ...(newParents.get(key) ?? [])];
    const requiredBy = parents.filter((parent) => parent !== key).sort();
    if (requiredBy.length === 0) continue;
    const own = new Map(p.clusters.map((c) => [c.name, c.replicas]));
    const extra = new Map<string, number>();
    const required: RequiredBy = [];
    const dependedBy: Record<string, string> = {};
    for (const parentKey of requiredBy) {
      const parentClusters = clustersOf(parentKey);
      const snapshot = snapshotOf(parentKey, parentClusters);
      const pref = parseRefKey(parentKey);
      const name = bindingName(pref.kind, pref.name);
      required.push({ namespace: pref.namespace, name, clusters: snapshot });
      dependedBy[`${DEPENDED_BY_LABEL_PREFIX}${bindingReferenceKey(pref.namespace, name)}`] = permanentId(
        `binding/${parentKey}`,
      );
      for (const c of snapshot)
        if (!own.has(c.name) && !extra.has(c.name) && mayGo(p.template, c.name)) extra.set(c.name, c.replicas ?? 0);
      for (const c of parentClusters) if (!own.has(c) && !extra.has(c) && mayGo(p.template, c)) extra.set(c, 0);
    }
    const clusters = [...p.clusters, ...[...extra].map(([name, replicas]) => ({ name, replicas }))].sort(byName);
    const overwrites = requiredBy.map((k) => entryOf(k)?.overwrite === true);
    const preserves = requiredBy.map((k) => entryOf(k)?.preserve === true);
    const reasons = p.binding
      ? []
      : [
          ...(overwrites.includes(true) && overwrites.includes(false)
            ? ['ConflictResolution conflicted (Overwrite vs Abort)']
            : []),
          ...(preserves.includes(true) && preserves.includes(false)
            ? ['PreserveResourcesOnDeletion conflicted (true vs false)']
            : []),
        ];
    const binding = p.binding
      ? {
          ...p.binding,
          metadata: { ...p.binding.metadata, labels: sortedLabels({ ...p.binding.metadata.labels, ...dependedBy }) },
          spec: { ...p.binding.spec, requiredBy: required },
        }
      : attachedBinding(p.template, required, dependedBy, {
          overwrite: overwrites.includes(true),
          preserve: preserves.includes(true),
        });
    attached.set(key, {
      requiredBy,
      clusters,
      binding,
      ...(reasons.length > 0 ? { policyConflict: `Dependency policy conflict detected: ${reasons.join('; ')}.` } : {}),
    });
  }
  return attached;
}

/**
 * A dependency with no policy of its own still gets a binding: Karmada's attached ResourceBinding, with no placement
 * and no result (the scheduler skips it; its Works follow requiredBy). Its conflict resolution is Overwrite when any
 * parent's is, and it preserves its member objects on deletion when any parent does (detectAndResolveConflictResolution,
 * detectAndResolvePreserveOnDeletion). Both are written also when they are the defaults: createOrUpdateAttachedBinding
 * sets the resolved Abort and a pointer to false, which the binding's JSON keeps.
 */
export function attachedBinding(
  template: Template,
  requiredBy: RequiredBy,
  dependedBy: Readonly<Record<string, string>>,
  inherited: { overwrite: boolean; preserve: boolean } = { overwrite: false, preserve: false },
): ResourceBinding {
  const ref = template.ref;
  return {
    apiVersion: WORK_API_VERSION,
    kind: 'ResourceBinding',
    metadata: {
      name: bindingName(ref.kind, ref.name),
      namespace: ref.namespace,
      labels: sortedLabels({
        ...dependedBy,
        'resourcebinding.karmada.io/permanent-id': permanentId(`binding/${refKey(ref)}`),
      }),
    },
    spec: {
      resource: { apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace, name: ref.name },
      requiredBy,
      conflictResolution: inherited.overwrite ? 'Overwrite' : 'Abort',
      preserveResourcesOnDeletion: inherited.preserve,
    },
  };
}

/** Labels in key order, as the API server returns a map. */
function sortedLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(labels)
      .sort()
      .map((k) => [k, labels[k]!]),
  );
}

function byName(a: TargetCluster, b: TargetCluster): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The refKeys a template drags along when its policy says propagateDeps (Karmada's GetDependencies), in its order
 * and with what it names twice (an Ingress's spec.tls) twice, as the binding's annotation records them; [] otherwise.
 */
export function dependenciesOf(
  template: Template,
  propagateDeps: boolean,
  custom: Customizations | undefined,
): string[] {
  if (!propagateDeps) return [];
  const deps = interpretDependencies(template.manifest, template.ref.namespace, custom).map(refKey);
  if (!template.variants) return deps;
  // Each variant's own: the clusters of one variant get what it names (one binding lists the union).
  const named = new Set(deps);
  for (const v of template.variants.slice(1))
    for (const d of interpretDependencies(v.manifest, template.ref.namespace, custom)) {
      const key = refKey(d);
      if (!named.has(key)) deps.push(key);
      named.add(key);
    }
  return deps;
}

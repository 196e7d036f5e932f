// A relabel that takes a cluster out of a Duplicated placement's affinity leaves its scheduling result exactly the
// previous one without that cluster (outputs/steadyResults.ts decides when): the binding loses the cluster, the
// cluster loses its manifest, every other cluster keeps its own. A NoExecute taint that evicts such a placement from a
// cluster leaves the same result, but the cluster keeps its manifest under a graceful eviction task until the task
// ends; when it ends, the cluster takes the copy back, or loses it. Such a template is not read, scheduled or
// rendered: this writes what the render would have written for it, from its previous binding and index entry.
import type { ResourceBinding, TargetCluster } from '../api/binding.ts';
import { parseRefKey } from '../api/kinds.ts';
import type { Eviction } from '../evictions/evictBinding.ts';
import type { TaskEnd } from '../evictions/gracefulEviction.ts';
import { bindingPath, manifestPath } from '../branches/rendered/outputPaths.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { changedText } from './changedText.ts';

/** A template whose result only loses clusters: its new binding and index entry, and the clusters it leaves. */
export interface ShrunkResult {
  binding: ResourceBinding;
  entry: IndexEntry;
  /** Clusters its result no longer holds: their manifest goes (and is released when the binding preserves it). */
  lost: readonly string[];
  /**
   * Set when the taint manager took the clusters out (their manifests stay, `lost` is empty): what the commit message
   * says of each eviction, against the new result, and when the next render must look at the new tasks (now: a task
   * made by a render waits for the next one, works/renderTemplates.ts Placed.evictionEnd).
   */
  evicted?: { evictions: readonly Eviction[]; result: readonly TargetCluster[]; lookAt: number };
  /**
   * Set when its graceful eviction tasks ended: how each ended, the result they were assessed against, and the
   * clusters the scheduler took back (each keeps its copy; a freed cluster not among them is in `lost`).
   */
  released?: { ends: readonly TaskEnd[]; result: readonly TargetCluster[]; placedAgain: readonly string[] };
  /** The binding is the previous one as it stands: it is not written again. */
  bindingUnchanged?: true;
}

/**
 * The previous result without the lost clusters: the binding's spec.clusters and the entry's clusters (and their
 * replicas, kept in step) filtered, nothing else moved. Undefined when nothing is lost or nothing would remain (a
 * result with no cluster is a failed schedule, which the scheduler reports).
 */
export function shrinkResult(
  binding: ResourceBinding,
  entry: IndexEntry,
  lost: ReadonlySet<string>,
): ShrunkResult | undefined {
  const clusters = binding.spec.clusters ?? [];
  const kept = clusters.filter((c) => !lost.has(c.name));
  if (kept.length === clusters.length || kept.length === 0) return undefined;
  const stays = entry.clusters.map((c) => !lost.has(c));
  const { replicas, ...rest } = entry;
  const keptReplicas = replicas?.filter((_, i) => stays[i]);
  return {
    binding: { ...binding, spec: { ...binding.spec, clusters: kept } },
    entry: {
      ...rest,
      clusters: entry.clusters.filter((_, i) => stays[i]),
      // Where the entry had it; absent, as the render leaves it, when no cluster kept gets a replica.
      ...(keptReplicas?.some((n) => n > 0) ? { replicas: keptReplicas } : {}),
    },
    lost: entry.clusters.filter((c) => lost.has(c)),
  };
}

/**
 * Each shrunk template's output edits: the new binding's text (stamped with this commit, as every rewritten file is),
 * unless it is unchanged, and the removal of its manifest on each lost cluster. Returns the bytes written, counted
 * against the render's limit.
 */
export function writeShrunkResults<F>(
  shrunk: ReadonlyMap<string, ShrunkResult>,
  sourceCommit: string,
  keep: (text: string) => F,
  edits: Map<string, F | string | null>,
  released: Map<string, string[]>,
): number {
  let bytes = 0;
  for (const [key, s] of shrunk) {
    const ref = parseRefKey(key);
    if (!s.bindingUnchanged) {
      const text = changedText(s.binding, undefined, sourceCommit)!;
      bytes += Buffer.byteLength(text);
      edits.set(bindingPath(ref), keep(text));
    }
    for (const cluster of s.lost) {
      edits.set(manifestPath(cluster, ref), null);
      // As for any cluster leaving a result: Karmada's Work keeps preserveResourcesOnDeletion, the object stays.
      if (s.binding.spec.preserveResourcesOnDeletion) released.set(cluster, [...(released.get(cluster) ?? []), key]);
    }
  }
  return bytes;
}

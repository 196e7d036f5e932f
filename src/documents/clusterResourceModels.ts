// Karmada's Cluster admission (registry/cluster/strategy.go, CustomizedClusterResourceModeling on by default):
// a Cluster registered without resource models gets the nine default grades, and any models are put in grade order
// with the first grade starting at 0 and the last one open-ended. The status pass grades member nodes by them and
// the estimator counts whole nodes of each grade.
import type { Cluster, ResourceModel } from '../api/cluster.ts';
import { DEFAULT_RESOURCE_MODELS, UNBOUNDED_QUANTITY } from '../api/clusterResourceModels.ts';

/** The Cluster as admission leaves it: default models when it has none, else its models standardized. */
export function withResourceModels(cluster: Cluster): Cluster {
  const models = cluster.spec.resourceModels;
  if (!Array.isArray(models) || models.length === 0)
    return { ...cluster, spec: { ...cluster.spec, resourceModels: DEFAULT_RESOURCE_MODELS.map(copyModel) } };
  return { ...cluster, spec: { ...cluster.spec, resourceModels: standardized(models) } };
}

/** StandardizeClusterResourceModels: sorted by grade, the first grade's minimums 0, the last grade's maximums unbounded. */
function standardized(models: readonly ResourceModel[]): ResourceModel[] {
  const sorted = models.map(copyModel).sort((a, b) => a.grade - b.grade);
  const first = sorted[0]!;
  first.ranges = first.ranges.map((r) => ({ ...r, min: '0' }));
  const last = sorted[sorted.length - 1]!;
  last.ranges = last.ranges.map((r) => ({ ...r, max: UNBOUNDED_QUANTITY }));
  return sorted;
}

/** A copy, with what the Cluster leaves out as Go decodes it: grade 0, no ranges, a nameless range, zero bounds. */
function copyModel(m: Partial<ResourceModel>): ResourceModel {
  return {
    grade: m.grade ?? 0,
    ranges: (m.ranges ?? []).map((r: Partial<ResourceModel['ranges'][number]>) => ({
      ...r,
      name: r.name ?? '',
      min: r.min ?? '0',
      max: r.max ?? '0',
    })),
  };
}

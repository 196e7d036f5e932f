// Karmada's default resource models (pkg/apis/cluster/mutation SetDefaultClusterResourceModels): every Cluster
// registered without its own gets them, and its nodes are graded by them.
import type { ResourceModel } from './cluster.ts';

/** resource.Quantity's math.MaxInt64, the last grade's upper bound. */
export const UNBOUNDED_QUANTITY = '9223372036854775807';

/** SetDefaultClusterResourceModels: cpu 0-1-2-4-...-128 cores, memory 0-4Gi-16Gi-32Gi-...-1Ti. */
const DEFAULT_BOUNDS: readonly [cpu: string, memory: string][] = [
  ['0', '0'],
  ['1', '4Gi'],
  ['2', '16Gi'],
  ['4', '32Gi'],
  ['8', '64Gi'],
  ['16', '128Gi'],
  ['32', '256Gi'],
  ['64', '512Gi'],
  ['128', '1Ti'],
];

export const DEFAULT_RESOURCE_MODELS: readonly ResourceModel[] = DEFAULT_BOUNDS.map(([cpu, memory], grade) => {
  const next = DEFAULT_BOUNDS[grade + 1];
  return {
    grade,
    ranges: [
      { name: 'cpu', min: cpu, max: next ? next[0] : UNBOUNDED_QUANTITY },
      { name: 'memory', min: memory, max: next ? next[1] : UNBOUNDED_QUANTITY },
    ],
  };
});

/** Whether these are the default models, which need not be written anywhere. */
export function isDefaultResourceModels(models: readonly ResourceModel[] | undefined): boolean {
  return models === undefined || JSON.stringify(models) === JSON.stringify(DEFAULT_RESOURCE_MODELS);
}

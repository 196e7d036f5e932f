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

/**
 * Whether these are the default models, which need not be written anywhere: the same JSON as the defaults. Asked for
 * every Cluster on every render (each is registered with its own copy of them), so compared in place, not serialized.
 */
export function isDefaultResourceModels(models: readonly ResourceModel[] | undefined): boolean {
  return models === undefined || sameJson(models, DEFAULT_RESOURCE_MODELS);
}

/** JSON.stringify(a) === JSON.stringify(b) for parsed data (no undefined, functions or cycles), key order included. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

import type { Placement } from './policy.ts';

// Karmada's scheduler records the placement a result was computed for as json.Marshal(*rb.Spec.Placement) in the
// binding's policy.karmada.io/applied-placement annotation (pkg/scheduler/scheduler.go). Go writes a struct's fields in
// declaration order, leaves out `omitempty` fields that are empty ("", 0, an empty list or map, a nil pointer),
// sorts map keys and drops what the struct does not declare; the annotation is that text, not the YAML's order.

/** How Go marshals one field: its JSON name, its shape, and whether an empty value is left out. */
type GoField = readonly [name: string, shape: GoShape, omitempty: boolean];
/** 'string' and 'int' are Go values (empty: "" and 0), 'intPointer' a *int64 (empty only when nil). */
type GoShape =
  | 'string'
  | 'int'
  | 'intPointer'
  | 'strings'
  | 'stringMap'
  | { struct: readonly GoField[]; list?: true; pointer?: true };

// meta/v1 LabelSelectorRequirement and core/v1 NodeSelectorRequirement: key, operator, values (omitempty).
const REQUIREMENTS: GoShape = {
  list: true,
  struct: [
    ['key', 'string', false],
    ['operator', 'string', false],
    ['values', 'strings', true],
  ],
};

const LABEL_SELECTOR: readonly GoField[] = [
  ['matchLabels', 'stringMap', true],
  ['matchExpressions', REQUIREMENTS, true],
];

// policy/v1alpha1 ClusterAffinity; FieldSelector holds core/v1 NodeSelectorRequirements.
const CLUSTER_AFFINITY: readonly GoField[] = [
  ['labelSelector', { struct: LABEL_SELECTOR, pointer: true }, true],
  ['fieldSelector', { pointer: true, struct: [['matchExpressions', REQUIREMENTS, true]] }, true],
  ['clusterNames', 'strings', true],
  ['exclude', 'strings', true],
];

// ClusterAffinityTerm and OverflowClusterAffinity: affinityName, then the inlined ClusterAffinity.
const OVERFLOW_AFFINITY: readonly GoField[] = [['affinityName', 'string', false], ...CLUSTER_AFFINITY];
const AFFINITY_TERM: readonly GoField[] = [
  ...OVERFLOW_AFFINITY,
  ['overflowAffinities', { list: true, struct: OVERFLOW_AFFINITY }, true],
];

const TOLERATION: readonly GoField[] = [
  ['key', 'string', true],
  ['operator', 'string', true],
  ['value', 'string', true],
  ['effect', 'string', true],
  ['tolerationSeconds', 'intPointer', true],
];

const SPREAD_CONSTRAINT: readonly GoField[] = [
  ['spreadByField', 'string', true],
  ['spreadByLabel', 'string', true],
  ['maxGroups', 'int', true],
  ['minGroups', 'int', true],
];

const REPLICA_SCHEDULING: readonly GoField[] = [
  ['replicaSchedulingType', 'string', true],
  ['replicaDivisionPreference', 'string', true],
  [
    'weightPreference',
    {
      pointer: true,
      struct: [
        [
          'staticWeightList',
          {
            list: true,
            struct: [
              ['targetCluster', { struct: CLUSTER_AFFINITY }, false],
              ['weight', 'int', false],
            ],
          },
          true,
        ],
        ['dynamicWeight', 'string', true],
      ],
    },
    true,
  ],
];

const GROUP_BY: readonly GoField[] = [['groupByLabelKey', 'string', false]];

const PLACEMENT: readonly GoField[] = [
  ['clusterAffinity', { struct: CLUSTER_AFFINITY, pointer: true }, true],
  ['clusterAffinities', { list: true, struct: AFFINITY_TERM }, true],
  ['clusterTolerations', { list: true, struct: TOLERATION }, true],
  ['spreadConstraints', { list: true, struct: SPREAD_CONSTRAINT }, true],
  ['replicaScheduling', { struct: REPLICA_SCHEDULING, pointer: true }, true],
  [
    'workloadAffinity',
    {
      pointer: true,
      struct: [
        ['affinity', { struct: GROUP_BY, pointer: true }, true],
        ['antiAffinity', { struct: GROUP_BY, pointer: true }, true],
      ],
    },
    true,
  ],
];

/** The applied-placement annotation's text: the placement as Go's json.Marshal writes Karmada's Placement struct. */
export function placementJson(placement: Placement): string {
  return JSON.stringify(goValue(placement, { struct: PLACEMENT }));
}

function goValue(value: unknown, shape: GoShape): unknown {
  if (shape === 'string') return value ?? '';
  if (shape === 'int') return value ?? 0;
  if (shape === 'intPointer') return value ?? null;
  if (shape === 'strings') return Array.isArray(value) ? value : null;
  if (shape === 'stringMap') {
    if (value === null || typeof value !== 'object') return null;
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }
  if (shape.list) return Array.isArray(value) ? value.map((item) => goStruct(item, shape.struct)) : null;
  if (shape.pointer && (value === null || value === undefined)) return null;
  return goStruct(value, shape.struct);
}

function goStruct(value: unknown, fields: readonly GoField[]): Record<string, unknown> {
  const from = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [name, shape, omitempty] of fields) {
    const field = from[name];
    if (omitempty && isEmpty(field, shape)) continue;
    out[name] = goValue(field, shape);
  }
  return out;
}

/** Go's omitempty: false, 0, "", a nil pointer, and a list or map of length 0. */
function isEmpty(value: unknown, shape: GoShape): boolean {
  if (value === undefined || value === null) return true;
  if (shape === 'string' || shape === 'int') return value === '' || value === 0 || value === false;
  if (Array.isArray(value)) return value.length === 0;
  if (shape === 'stringMap') return typeof value !== 'object' || Object.keys(value as object).length === 0;
  return false;
}

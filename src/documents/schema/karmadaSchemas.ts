// The full field sets of Karmada's policy kinds (policy.karmada.io/v1alpha1) and Cluster
// (cluster.karmada.io/v1alpha1), written in our schema language. Field names, enums, required
// fields and minimums follow Karmada's CRDs (charts/karmada/_crds/bases/policy/*.yaml) and
// pkg/apis/cluster/v1alpha1/types.go at the commit named in KARMADA.md. Rules that need more than
// one field (mutual exclusion, uniqueness, ...) live in validateKarmadaRules.ts.
import type { Schema } from './types.ts';

export type KarmadaKind =
  | 'PropagationPolicy'
  | 'ClusterPropagationPolicy'
  | 'OverridePolicy'
  | 'ClusterOverridePolicy'
  | 'ClusterTaintPolicy'
  | 'Cluster';

export const KARMADA_KINDS: readonly KarmadaKind[] = [
  'PropagationPolicy',
  'ClusterPropagationPolicy',
  'OverridePolicy',
  'ClusterOverridePolicy',
  'ClusterTaintPolicy',
  'Cluster',
];

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const str = (extra: { enum?: string[]; pattern?: RegExp; maxLength?: number } = {}): Schema => ({
  type: 'string',
  ...extra,
});
// Karmada declares these int64 (or Go int); a JavaScript number holds whole numbers exactly only up to 2^53 - 1,
// so a larger value, which would be silently rounded, is refused rather than used as a rounded number.
const int = (extra: { minimum?: number; maximum?: number } = {}): Schema => ({
  type: 'integer',
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  ...extra,
});
const int32 = (extra: { minimum?: number } = {}): Schema => ({
  type: 'integer',
  minimum: INT32_MIN,
  maximum: INT32_MAX,
  ...extra,
});
const bool: Schema = { type: 'boolean' };
const any: Schema = { type: 'any' };
const list = (items: Schema, minItems?: number): Schema =>
  minItems === undefined ? { type: 'array', items } : { type: 'array', items, minItems };
const obj = (fields: Record<string, Schema>, required?: string[]): Schema =>
  required ? { type: 'object', fields, required } : { type: 'object', fields };
const map = (values: Schema): Schema => ({ type: 'object', fields: {}, additional: values });
const strings = list(str());
const stringMap = map(str());

// ---- metav1 ----

/** metav1.ObjectMeta: every field the API server knows, nothing else. `name` is required in a config repo. */
export const objectMeta: Schema = obj(
  {
    name: str(),
    generateName: str(),
    namespace: str(),
    selfLink: str(),
    uid: str(),
    resourceVersion: str(),
    generation: int(),
    creationTimestamp: str(),
    deletionTimestamp: str(),
    deletionGracePeriodSeconds: int(),
    labels: stringMap,
    annotations: stringMap,
    ownerReferences: list(
      obj({ apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool, blockOwnerDeletion: bool }, [
        'apiVersion',
        'kind',
        'name',
        'uid',
      ]),
    ),
    finalizers: strings,
    managedFields: list({ type: 'object', fields: {}, open: true }),
  },
  ['name'],
);

/**
 * metav1.LabelSelector as Karmada's CRDs declare it: the operator has no enum, and no webhook reads it, so another
 * operator is stored and matches nothing (findVoidLabelSelectors warns at it). Flotilla's own formats take the four.
 */
const labelSelectorWith = (operator: Schema): Schema =>
  obj({
    matchLabels: stringMap,
    matchExpressions: list(obj({ key: str(), operator, values: strings }, ['key', 'operator'])),
  });
const labelSelector = labelSelectorWith(str());

// ---- policy.karmada.io: shared pieces ----

const resourceSelector: Schema = obj({ apiVersion: str(), kind: str(), namespace: str(), name: str(), labelSelector }, [
  'apiVersion',
  'kind',
]);

/** corev1.NodeSelectorRequirement; key and operator are constrained by the webhook rules, not here. */
const fieldSelector: Schema = obj({
  matchExpressions: list(obj({ key: str(), operator: str(), values: strings }, ['key', 'operator'])),
});

const clusterAffinityFields: Record<string, Schema> = {
  labelSelector,
  fieldSelector,
  clusterNames: strings,
  exclude: strings,
};

const clusterAffinity: Schema = obj(clusterAffinityFields);

/** A ClusterAffinity on its own (clusterNames, exclude, labelSelector, fieldSelector): a scoped unit's options use it. */
export const CLUSTER_AFFINITY_SCHEMA: Schema = obj({
  ...clusterAffinityFields,
  labelSelector: labelSelectorWith(str({ enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] })),
});

const overflowClusterAffinity: Schema = obj({ affinityName: str(), ...clusterAffinityFields }, ['affinityName']);

const clusterAffinityTerm: Schema = obj(
  { affinityName: str(), ...clusterAffinityFields, overflowAffinities: list(overflowClusterAffinity) },
  ['affinityName'],
);

/**
 * corev1.Toleration. Its operator and effect have no enum in Karmada's CRDs: the webhook rules refuse Lt/Gt and warn
 * at the other values Karmada admits.
 */
const toleration: Schema = obj({
  key: str(),
  operator: str(),
  value: str(),
  effect: str(),
  tolerationSeconds: int(),
});

const spreadConstraint: Schema = obj({
  spreadByField: str({ enum: ['cluster', 'region', 'zone', 'provider'] }),
  spreadByLabel: str(),
  maxGroups: int(),
  minGroups: int(),
});

const replicaScheduling: Schema = obj({
  replicaSchedulingType: str({ enum: ['Duplicated', 'Divided'] }),
  replicaDivisionPreference: str({ enum: ['Aggregated', 'Weighted'] }),
  weightPreference: obj({
    // weight >= 1 is checked by the webhook rules.
    staticWeightList: list(obj({ targetCluster: clusterAffinity, weight: int() }, ['targetCluster', 'weight'])),
    dynamicWeight: str({ enum: ['AvailableReplicas'] }),
  }),
});

const placement: Schema = obj({
  clusterAffinity,
  clusterAffinities: list(clusterAffinityTerm),
  clusterTolerations: list(toleration),
  spreadConstraints: list(spreadConstraint),
  replicaScheduling,
  workloadAffinity: obj({
    affinity: obj({ groupByLabelKey: str() }, ['groupByLabelKey']),
    antiAffinity: obj({ groupByLabelKey: str() }, ['groupByLabelKey']),
  }),
});

const statePreservation: Schema = obj(
  { rules: list(obj({ aliasLabelName: str(), jsonPath: str() }, ['aliasLabelName', 'jsonPath'])) },
  ['rules'],
);

const failover: Schema = obj({
  application: obj(
    {
      decisionConditions: obj({ tolerationSeconds: int32() }),
      purgeMode: str({ enum: ['Directly', 'Gracefully', 'Never'] }),
      gracePeriodSeconds: int32(),
      statePreservation,
    },
    ['decisionConditions'],
  ),
  cluster: obj({
    purgeMode: str({ enum: ['Directly', 'Gracefully'] }),
    statePreservation,
  }),
});

const propagationSpec: Schema = obj(
  {
    resourceSelectors: list(resourceSelector, 1),
    association: bool,
    propagateDeps: bool,
    placement,
    priority: int32(),
    preemption: str({ enum: ['Always', 'Never'] }),
    dependentOverrides: strings,
    schedulerName: str(),
    failover,
    conflictResolution: str({ enum: ['Abort', 'Overwrite'] }),
    activationPreference: str({ enum: ['', 'Lazy'] }),
    suspension: obj({
      dispatching: bool,
      dispatchingOnClusters: obj({ clusterNames: strings }),
    }),
    preserveResourcesOnDeletion: bool,
    schedulePriority: obj({ priorityClassSource: str({ enum: ['KubePriorityClass'] }), priorityClassName: str() }, [
      'priorityClassSource',
      'priorityClassName',
    ]),
  },
  ['resourceSelectors'],
);

// ---- overrides ----

const overrideOperator = str({ enum: ['add', 'remove', 'replace'] });

const patchOperation: Schema = obj({ subPath: str(), operator: overrideOperator, value: any }, ['subPath', 'operator']);

const overriders: Schema = obj({
  plaintext: list(obj({ path: str(), operator: overrideOperator, value: any }, ['path', 'operator'])),
  imageOverrider: list(
    obj(
      {
        predicate: obj({ path: str() }, ['path']),
        component: str({ enum: ['Registry', 'Repository', 'Tag'] }),
        operator: overrideOperator,
        value: str(),
      },
      ['component', 'operator'],
    ),
  ),
  commandOverrider: list(
    obj({ containerName: str(), operator: str({ enum: ['add', 'remove'] }), value: strings }, [
      'containerName',
      'operator',
    ]),
  ),
  argsOverrider: list(
    obj({ containerName: str(), operator: str({ enum: ['add', 'remove'] }), value: strings }, [
      'containerName',
      'operator',
    ]),
  ),
  labelsOverrider: list(obj({ operator: overrideOperator, value: stringMap }, ['operator', 'value'])),
  annotationsOverrider: list(obj({ operator: overrideOperator, value: stringMap }, ['operator', 'value'])),
  fieldOverrider: list(
    obj({ fieldPath: str(), json: list(patchOperation), yaml: list(patchOperation) }, ['fieldPath']),
  ),
});

const overrideSpec: Schema = obj({
  resourceSelectors: list(resourceSelector),
  overrideRules: list(obj({ targetCluster: clusterAffinity, overriders }, ['overriders'])),
  targetCluster: clusterAffinity,
  overriders,
});

// ---- cluster.karmada.io ----

const localSecretReference: Schema = obj({ namespace: str(), name: str() }, ['namespace', 'name']);

const clusterSpec: Schema = obj(
  {
    id: str({ maxLength: 128000 }),
    syncMode: str({ enum: ['Push', 'Pull'] }),
    apiEndpoint: str(),
    /** Flotilla's extension: where the kubeconfig for this member lives outside Git. */
    kubeconfigRef: obj({ path: str(), context: str() }),
    secretRef: localSecretReference,
    impersonatorSecretRef: localSecretReference,
    insecureSkipTLSVerification: bool,
    proxyURL: str(),
    proxyHeader: stringMap,
    provider: str(),
    region: str(),
    zone: str(),
    zones: strings,
    taints: list(
      obj(
        {
          key: str(),
          value: str(),
          // ValidateClusterTaints: a Cluster takes no PreferNoSchedule taint (its scheduler would not read one).
          effect: str({ enum: ['NoSchedule', 'NoExecute'] }),
          timeAdded: str(),
        },
        ['key', 'effect'],
      ),
    ),
    // The aggregated API server serving Clusters has no schema: a grade, range, name or bound left out is Go's zero
    // value (a first grade's minimum and a last grade's maximum are set by admission anyway).
    resourceModels: list(
      obj({
        grade: int({ minimum: 0 }),
        ranges: list(obj({ name: str(), min: { type: 'quantity' }, max: { type: 'quantity' } })),
      }),
    ),
  },
  ['syncMode'],
);

const resourceList: Schema = map({ type: 'quantity' });

/** Written by controllers; typed where Karmada defines it, open so newer status fields pass through. */
const clusterStatus: Schema = {
  type: 'object',
  open: true,
  fields: {
    kubernetesVersion: str(),
    apiEnablements: list(
      obj({ groupVersion: str(), resources: list(obj({ name: str(), kind: str() }, ['name', 'kind'])) }, [
        'groupVersion',
      ]),
    ),
    conditions: list(
      obj(
        {
          type: str(),
          status: str({ enum: ['True', 'False', 'Unknown'] }),
          reason: str(),
          message: str(),
          lastTransitionTime: str(),
          observedGeneration: int(),
        },
        ['type', 'status'],
      ),
    ),
    nodeSummary: obj({ totalNum: int32(), readyNum: int32() }),
    resourceSummary: obj({
      allocatable: resourceList,
      allocating: resourceList,
      allocated: resourceList,
      allocatableModelings: list(obj({ grade: int({ minimum: 0 }), count: int() }, ['grade', 'count'])),
    }),
    remedyActions: strings,
  },
};

// ---- ClusterTaintPolicy (pkg/apis/policy/v1alpha1/clustertaint_types.go) ----

// The CRD constrains neither operator nor statusValues; the controller matches nothing with another operator.
const matchCondition: Schema = obj(
  {
    conditionType: str(),
    operator: str(),
    statusValues: strings,
  },
  ['conditionType', 'operator', 'statusValues'],
);

const clusterTaintPolicySpec: Schema = obj(
  {
    targetClusters: clusterAffinity,
    addOnConditions: list(matchCondition),
    removeOnConditions: list(matchCondition),
    // No enum on effect in the CRD: the webhook rules hold each taint to what a Cluster can take.
    taints: list(obj({ key: str(), effect: str(), value: str() }, ['key', 'effect']), 1),
  },
  ['taints'],
);

function document(apiVersion: string, kind: KarmadaKind, spec: Schema, status?: Schema): Schema {
  const fields: Record<string, Schema> = {
    apiVersion: str({ enum: [apiVersion] }),
    kind: str({ enum: [kind] }),
    metadata: objectMeta,
    spec,
  };
  if (status) fields.status = status;
  return obj(fields, ['apiVersion', 'kind', 'metadata', 'spec']);
}

const POLICY = 'policy.karmada.io/v1alpha1';
const CLUSTER = 'cluster.karmada.io/v1alpha1';

export const SCHEMAS: Record<KarmadaKind, Schema> = {
  PropagationPolicy: document(POLICY, 'PropagationPolicy', propagationSpec),
  ClusterPropagationPolicy: document(POLICY, 'ClusterPropagationPolicy', propagationSpec),
  OverridePolicy: document(POLICY, 'OverridePolicy', overrideSpec),
  ClusterOverridePolicy: document(POLICY, 'ClusterOverridePolicy', overrideSpec),
  ClusterTaintPolicy: document(POLICY, 'ClusterTaintPolicy', clusterTaintPolicySpec),
  Cluster: document(CLUSTER, 'Cluster', clusterSpec, clusterStatus),
};

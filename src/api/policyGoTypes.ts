// The Go shapes of Karmada's policy specs as encoding/json sees them: each field's JSON name, whether its tag says
// `omitempty`, and whether it is a value, a pointer, a slice, a map or a struct. Read from
// pkg/apis/policy/v1alpha1/{propagation,override}_types.go, k8s.io/api core/v1 (Toleration,
// NodeSelectorRequirement), apimachinery meta/v1 (LabelSelector) and apiextensions v1 (JSON). A mutating webhook
// decodes a policy into these types and marshals it back (src/documents/storedPolicy.ts), so they decide what
// Karmada stores.

export type GoType =
  | { go: 'string' }
  | { go: 'int' }
  | { go: 'bool' }
  /** apiextensionsv1.JSON: kept as written; null and absence both marshal to null. */
  | { go: 'json' }
  | { go: 'pointer'; to: GoType }
  | { go: 'slice'; of: GoType }
  | { go: 'map'; of: GoType }
  | { go: 'struct'; fields: Readonly<Record<string, GoField>> };

export interface GoField {
  type: GoType;
  omitempty: boolean;
}

const string: GoType = { go: 'string' };
const int: GoType = { go: 'int' };
const bool: GoType = { go: 'bool' };
const json: GoType = { go: 'json' };
const pointer = (to: GoType): GoType => ({ go: 'pointer', to });
const slice = (of: GoType): GoType => ({ go: 'slice', of });
const struct = (fields: Record<string, GoField>): GoType => ({ go: 'struct', fields });
/** `json:"name,omitempty"` */
const opt = (type: GoType): GoField => ({ type, omitempty: true });
/** `json:"name"` */
const req = (type: GoType): GoField => ({ type, omitempty: false });

const labelSelector = struct({
  matchLabels: opt({ go: 'map', of: string }),
  matchExpressions: opt(slice(struct({ key: req(string), operator: req(string), values: opt(slice(string)) }))),
});

const clusterAffinityFields = {
  labelSelector: opt(pointer(labelSelector)),
  fieldSelector: opt(
    pointer(
      struct({
        matchExpressions: opt(slice(struct({ key: req(string), operator: req(string), values: opt(slice(string)) }))),
      }),
    ),
  ),
  clusterNames: opt(slice(string)),
  exclude: opt(slice(string)),
};

const clusterAffinity = struct(clusterAffinityFields);

const resourceSelector = struct({
  apiVersion: req(string),
  kind: req(string),
  namespace: opt(string),
  name: opt(string),
  labelSelector: opt(pointer(labelSelector)),
});

const statePreservation = pointer(
  struct({ rules: req(slice(struct({ aliasLabelName: req(string), jsonPath: req(string) }))) }),
);

/** policyv1alpha1.Placement: what the applied-placement annotation holds. */
export const PLACEMENT = struct({
  clusterAffinity: opt(pointer(clusterAffinity)),
  clusterAffinities: opt(
    slice(
      struct({
        affinityName: req(string),
        ...clusterAffinityFields,
        overflowAffinities: opt(slice(struct({ affinityName: req(string), ...clusterAffinityFields }))),
      }),
    ),
  ),
  clusterTolerations: opt(
    slice(
      struct({
        key: opt(string),
        operator: opt(string),
        value: opt(string),
        effect: opt(string),
        tolerationSeconds: opt(pointer(int)),
      }),
    ),
  ),
  spreadConstraints: opt(
    slice(struct({ spreadByField: opt(string), spreadByLabel: opt(string), maxGroups: opt(int), minGroups: opt(int) })),
  ),
  replicaScheduling: opt(
    pointer(
      struct({
        replicaSchedulingType: opt(string),
        replicaDivisionPreference: opt(string),
        weightPreference: opt(
          pointer(
            struct({
              staticWeightList: opt(slice(struct({ targetCluster: req(clusterAffinity), weight: req(int) }))),
              dynamicWeight: opt(string),
            }),
          ),
        ),
      }),
    ),
  ),
  workloadAffinity: opt(
    pointer(
      struct({
        affinity: opt(pointer(struct({ groupByLabelKey: req(string) }))),
        antiAffinity: opt(pointer(struct({ groupByLabelKey: req(string) }))),
      }),
    ),
  ),
});

/** policyv1alpha1.PropagationSpec (PropagationPolicy and ClusterPropagationPolicy). */
export const PROPAGATION_SPEC: GoType = struct({
  resourceSelectors: req(slice(resourceSelector)),
  association: opt(bool),
  propagateDeps: opt(bool),
  placement: opt(PLACEMENT),
  priority: opt(pointer(int)),
  preemption: opt(string),
  dependentOverrides: opt(slice(string)),
  schedulerName: opt(string),
  failover: opt(
    pointer(
      struct({
        application: opt(
          pointer(
            struct({
              decisionConditions: req(struct({ tolerationSeconds: opt(pointer(int)) })),
              purgeMode: opt(string),
              gracePeriodSeconds: opt(pointer(int)),
              statePreservation: opt(statePreservation),
            }),
          ),
        ),
        cluster: opt(pointer(struct({ purgeMode: opt(string), statePreservation: opt(statePreservation) }))),
      }),
    ),
  ),
  conflictResolution: opt(string),
  activationPreference: opt(string),
  suspension: opt(
    pointer(
      struct({
        dispatching: opt(pointer(bool)),
        dispatchingOnClusters: opt(pointer(struct({ clusterNames: opt(slice(string)) }))),
      }),
    ),
  ),
  preserveResourcesOnDeletion: opt(pointer(bool)),
  schedulePriority: opt(pointer(struct({ priorityClassSource: req(string), priorityClassName: req(string) }))),
});

const patchOperation = struct({ subPath: req(string), operator: req(string), value: opt(json) });
const commandArgs = struct({ containerName: req(string), operator: req(string), value: opt(slice(string)) });
const labelsAnnotations = struct({ operator: req(string), value: req({ go: 'map', of: string }) });

/** policyv1alpha1.Overriders: what the applied-overrides annotations hold, one rule's each. */
export const OVERRIDERS = struct({
  plaintext: opt(slice(struct({ path: req(string), operator: req(string), value: opt(json) }))),
  imageOverrider: opt(
    slice(
      struct({
        predicate: opt(pointer(struct({ path: req(string) }))),
        component: req(string),
        operator: req(string),
        value: opt(string),
      }),
    ),
  ),
  commandOverrider: opt(slice(commandArgs)),
  argsOverrider: opt(slice(commandArgs)),
  labelsOverrider: opt(slice(labelsAnnotations)),
  annotationsOverrider: opt(slice(labelsAnnotations)),
  fieldOverrider: opt(
    slice(struct({ fieldPath: req(string), json: opt(slice(patchOperation)), yaml: opt(slice(patchOperation)) })),
  ),
});

/** policyv1alpha1.OverrideSpec (OverridePolicy and ClusterOverridePolicy). */
export const OVERRIDE_SPEC: GoType = struct({
  resourceSelectors: opt(slice(resourceSelector)),
  overrideRules: opt(slice(struct({ targetCluster: opt(pointer(clusterAffinity)), overriders: req(OVERRIDERS) }))),
  targetCluster: opt(pointer(clusterAffinity)),
  overriders: req(OVERRIDERS),
});

// Field numbers of the Kubernetes protobuf messages the emulator accepts in request bodies (from k8s.io/api and
// k8s.io/apimachinery generated.proto, v1.32). client-go's typed clients always send built-in kinds as protobuf and
// do not fall back to JSON on 415 (only CBOR does), so `kubectl create configmap|deployment|namespace|secret` need
// these. Spelling: `name:type`, where type is string | int | bool | bytes | <Message> | []<type> | map<type>, and a
// leading `*` marks a pointer field in Go, whose zero value is meaningful (replicas: 0) and must be kept.

export type MessageSchema = Readonly<Record<number, string>>;

const OBJECT_META: MessageSchema = {
  1: 'name:string',
  2: 'generateName:string',
  3: 'namespace:string',
  4: 'selfLink:string',
  5: 'uid:string',
  6: 'resourceVersion:string',
  7: 'generation:int',
  8: 'creationTimestamp:Time',
  9: 'deletionTimestamp:Time',
  10: 'deletionGracePeriodSeconds:*int',
  11: 'labels:map<string>',
  12: 'annotations:map<string>',
  13: 'ownerReferences:[]OwnerReference',
  14: 'finalizers:[]string',
};

export const MESSAGES: Readonly<Record<string, MessageSchema>> = {
  ObjectMeta: OBJECT_META,
  OwnerReference: {
    1: 'kind:string',
    3: 'name:string',
    4: 'uid:string',
    5: 'apiVersion:string',
    6: 'controller:*bool',
    7: 'blockOwnerDeletion:*bool',
  },
  LabelSelector: { 1: 'matchLabels:map<string>', 2: 'matchExpressions:[]LabelSelectorRequirement' },
  LabelSelectorRequirement: { 1: 'key:string', 2: 'operator:string', 3: 'values:[]string' },
  IntOrString: { 1: 'type:int', 2: 'intVal:int', 3: 'strVal:string' },

  ConfigMap: { 1: 'metadata:ObjectMeta', 2: 'data:map<string>', 3: 'binaryData:map<bytes>', 4: 'immutable:*bool' },
  Secret: {
    1: 'metadata:ObjectMeta',
    2: 'data:map<bytes>',
    3: 'type:string',
    4: 'stringData:map<string>',
    5: 'immutable:*bool',
  },
  Namespace: { 1: 'metadata:ObjectMeta', 2: 'spec:NamespaceSpec', 3: 'status:NamespaceStatus' },
  NamespaceSpec: { 1: 'finalizers:[]string' },
  NamespaceStatus: { 1: 'phase:string' },

  Deployment: { 1: 'metadata:ObjectMeta', 2: 'spec:DeploymentSpec', 3: 'status:DeploymentStatus' },
  DeploymentSpec: {
    1: 'replicas:*int',
    2: 'selector:LabelSelector',
    3: 'template:PodTemplateSpec',
    4: 'strategy:DeploymentStrategy',
    5: 'minReadySeconds:int',
    6: 'revisionHistoryLimit:*int',
    7: 'paused:bool',
    9: 'progressDeadlineSeconds:*int',
  },
  DeploymentStrategy: { 1: 'type:string', 2: 'rollingUpdate:RollingUpdateDeployment' },
  RollingUpdateDeployment: { 1: 'maxUnavailable:IntOrString', 2: 'maxSurge:IntOrString' },
  // A client never sets status on create; its zero-valued counters are read and dropped.
  DeploymentStatus: {
    1: 'observedGeneration:int',
    2: 'replicas:int',
    3: 'updatedReplicas:int',
    4: 'availableReplicas:int',
    5: 'unavailableReplicas:int',
    7: 'readyReplicas:int',
    8: 'collisionCount:*int',
    9: 'terminatingReplicas:*int',
  },

  PodTemplateSpec: { 1: 'metadata:ObjectMeta', 2: 'spec:PodSpec' },
  PodSpec: {
    2: 'containers:[]Container',
    3: 'restartPolicy:string',
    4: 'terminationGracePeriodSeconds:*int',
    5: 'activeDeadlineSeconds:*int',
    6: 'dnsPolicy:string',
    7: 'nodeSelector:map<string>',
    8: 'serviceAccountName:string',
    9: 'serviceAccount:string',
    10: 'nodeName:string',
    11: 'hostNetwork:bool',
    12: 'hostPID:bool',
    13: 'hostIPC:bool',
    16: 'hostname:string',
    17: 'subdomain:string',
    19: 'schedulerName:string',
    20: 'initContainers:[]Container',
    21: 'automountServiceAccountToken:*bool',
    24: 'priorityClassName:string',
    25: 'priority:*int',
    29: 'runtimeClassName:*string',
    30: 'enableServiceLinks:*bool',
    31: 'preemptionPolicy:*string',
    35: 'setHostnameAsFQDN:*bool',
    37: 'hostUsers:*bool',
  },
  Container: {
    1: 'name:string',
    2: 'image:string',
    3: 'command:[]string',
    4: 'args:[]string',
    5: 'workingDir:string',
    6: 'ports:[]ContainerPort',
    7: 'env:[]EnvVar',
    8: 'resources:ResourceRequirements',
    13: 'terminationMessagePath:string',
    14: 'imagePullPolicy:string',
    16: 'stdin:bool',
    17: 'stdinOnce:bool',
    18: 'tty:bool',
    20: 'terminationMessagePolicy:string',
    24: 'restartPolicy:*string',
  },
  ContainerPort: {
    1: 'name:string',
    2: 'hostPort:int',
    3: 'containerPort:int',
    4: 'protocol:string',
    5: 'hostIP:string',
  },
  EnvVar: { 1: 'name:string', 2: 'value:string' },
  ResourceRequirements: { 1: 'limits:map<Quantity>', 2: 'requests:map<Quantity>' },

  // autoscaling/v1 (`kubectl autoscale`); v2's message differs and is not decoded (see PROTOBUF_API_VERSIONS).
  HorizontalPodAutoscaler: {
    1: 'metadata:ObjectMeta',
    2: 'spec:HorizontalPodAutoscalerSpec',
    3: 'status:HorizontalPodAutoscalerStatus',
  },
  HorizontalPodAutoscalerSpec: {
    1: 'scaleTargetRef:CrossVersionObjectReference',
    2: 'minReplicas:*int',
    3: 'maxReplicas:int',
    4: 'targetCPUUtilizationPercentage:*int',
  },
  CrossVersionObjectReference: { 1: 'kind:string', 2: 'name:string', 3: 'apiVersion:string' },
  HorizontalPodAutoscalerStatus: {
    1: 'observedGeneration:*int',
    2: 'lastScaleTime:Time',
    3: 'currentReplicas:int',
    4: 'desiredReplicas:int',
    5: 'currentCPUUtilizationPercentage:*int',
  },
};

/** The top-level message of each kind the emulator decodes from protobuf. */
export const PROTOBUF_KINDS: ReadonlySet<string> = new Set([
  'ConfigMap',
  'Secret',
  'Namespace',
  'Deployment',
  'HorizontalPodAutoscaler',
]);

/** Kinds whose message above is one version's only: another version of the kind is refused. */
export const PROTOBUF_API_VERSIONS: Readonly<Record<string, string>> = { HorizontalPodAutoscaler: 'autoscaling/v1' };

import { API_FIELDS_SOURCE, KIND_TYPES } from './apiFields.generated.ts';
import { groupOf } from './kinds.ts';

// Karmada's API server is a kube-apiserver: a template of a built-in group at a version it no longer serves is
// refused when it is applied, so Karmada's detector never sees it and nothing is claimed or propagated.

/** A built-in apiVersion/kind kube-apiserver stopped serving, from Kubernetes' Deprecated API Migration Guide. */
export interface Removal {
  /** The Kubernetes minor release that stopped serving it. */
  removedIn: string;
  /** The apiVersion to write instead (served today), or why there is none. */
  use: string | { none: string };
}

const removals = (
  removedIn: string,
  use: Removal['use'],
  pairs: readonly (readonly [apiVersions: readonly string[], kinds: readonly string[]])[],
): [string, Removal][] =>
  pairs.flatMap(([apiVersions, kinds]) =>
    apiVersions.flatMap((apiVersion) => kinds.map((kind) => [`${apiVersion}/${kind}`, { removedIn, use }] as const)),
  ) as [string, Removal][];

const NO_PSP = { none: 'PodSecurityPolicy has no successor API; use Pod Security Admission (namespace labels)' };
const FLOW_CONTROL = ['FlowSchema', 'PriorityLevelConfiguration'];

/**
 * Every removal of the guide (kubernetes.io/docs/reference/using-api/deprecation-guide) up to 1.32, the version the
 * member emulator reports; no built-in API was removed after it through release-1.36, the kinds table's. A removed
 * version whose first replacement was removed later names the one served now (flowcontrol v1beta1 → v1).
 */
export const REMOVED_APIS: ReadonlyMap<string, Removal> = new Map([
  ...removals('1.16', 'networking.k8s.io/v1', [[['extensions/v1beta1'], ['NetworkPolicy']]]),
  ...removals('1.16', 'apps/v1', [
    [['extensions/v1beta1', 'apps/v1beta2'], ['DaemonSet']],
    [
      ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
      ['Deployment', 'ReplicaSet'],
    ],
    [['apps/v1beta1', 'apps/v1beta2'], ['StatefulSet']],
  ]),
  ...removals('1.16', NO_PSP, [[['extensions/v1beta1'], ['PodSecurityPolicy']]]),
  ...removals('1.22', 'admissionregistration.k8s.io/v1', [
    [['admissionregistration.k8s.io/v1beta1'], ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']],
  ]),
  ...removals('1.22', 'apiextensions.k8s.io/v1', [[['apiextensions.k8s.io/v1beta1'], ['CustomResourceDefinition']]]),
  ...removals('1.22', 'apiregistration.k8s.io/v1', [[['apiregistration.k8s.io/v1beta1'], ['APIService']]]),
  ...removals('1.22', 'authentication.k8s.io/v1', [[['authentication.k8s.io/v1beta1'], ['TokenReview']]]),
  ...removals('1.22', 'authorization.k8s.io/v1', [
    [['authorization.k8s.io/v1beta1'], ['LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SubjectAccessReview']],
  ]),
  ...removals('1.22', 'certificates.k8s.io/v1', [[['certificates.k8s.io/v1beta1'], ['CertificateSigningRequest']]]),
  ...removals('1.22', 'coordination.k8s.io/v1', [[['coordination.k8s.io/v1beta1'], ['Lease']]]),
  ...removals('1.22', 'networking.k8s.io/v1', [
    [['extensions/v1beta1', 'networking.k8s.io/v1beta1'], ['Ingress']],
    [['networking.k8s.io/v1beta1'], ['IngressClass']],
  ]),
  ...removals('1.22', 'rbac.authorization.k8s.io/v1', [
    [['rbac.authorization.k8s.io/v1beta1'], ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']],
  ]),
  ...removals('1.22', 'scheduling.k8s.io/v1', [[['scheduling.k8s.io/v1beta1'], ['PriorityClass']]]),
  ...removals('1.22', 'storage.k8s.io/v1', [
    [['storage.k8s.io/v1beta1'], ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment']],
  ]),
  ...removals('1.25', 'batch/v1', [[['batch/v1beta1'], ['CronJob']]]),
  ...removals('1.25', 'discovery.k8s.io/v1', [[['discovery.k8s.io/v1beta1'], ['EndpointSlice']]]),
  ...removals('1.25', 'events.k8s.io/v1', [[['events.k8s.io/v1beta1'], ['Event']]]),
  ...removals('1.25', 'autoscaling/v2', [[['autoscaling/v2beta1'], ['HorizontalPodAutoscaler']]]),
  ...removals('1.25', 'policy/v1', [[['policy/v1beta1'], ['PodDisruptionBudget']]]),
  ...removals('1.25', NO_PSP, [[['policy/v1beta1'], ['PodSecurityPolicy']]]),
  ...removals('1.25', 'node.k8s.io/v1', [[['node.k8s.io/v1beta1'], ['RuntimeClass']]]),
  ...removals('1.26', 'flowcontrol.apiserver.k8s.io/v1', [[['flowcontrol.apiserver.k8s.io/v1beta1'], FLOW_CONTROL]]),
  ...removals('1.26', 'autoscaling/v2', [[['autoscaling/v2beta2'], ['HorizontalPodAutoscaler']]]),
  ...removals('1.27', 'storage.k8s.io/v1', [[['storage.k8s.io/v1beta1'], ['CSIStorageCapacity']]]),
  ...removals('1.29', 'flowcontrol.apiserver.k8s.io/v1', [[['flowcontrol.apiserver.k8s.io/v1beta2'], FLOW_CONTROL]]),
  ...removals('1.32', 'flowcontrol.apiserver.k8s.io/v1', [[['flowcontrol.apiserver.k8s.io/v1beta3'], FLOW_CONTROL]]),
]);

/** The version the kinds table was generated from, as `1.36`. */
const SERVED_RELEASE = /release-(\d+\.\d+)/.exec(API_FIELDS_SOURCE)?.[1] ?? 'the current release';

/** API groups kube-apiserver itself serves ('' the core group): a version or kind of theirs it lacks is refused. */
const BUILTIN_GROUPS: ReadonlySet<string> = new Set(
  [...Object.keys(KIND_TYPES), ...REMOVED_APIS.keys()].map((key) => groupOf(key.slice(0, key.lastIndexOf('/')))),
);

/** Where each built-in kind is served today: kind → apiVersions, GA first. */
const SERVED_AT: ReadonlyMap<string, readonly string[]> = (() => {
  const at = new Map<string, string[]>();
  for (const key of Object.keys(KIND_TYPES)) {
    const slash = key.lastIndexOf('/');
    const kind = key.slice(slash + 1);
    at.set(kind, [...(at.get(kind) ?? []), key.slice(0, slash)]);
  }
  const stable = (v: string) => (/\/v\d+$|^v\d+$/.test(v) ? 0 : 1);
  for (const list of at.values()) list.sort((a, b) => stable(a) - stable(b) || a.localeCompare(b));
  return at;
})();

/**
 * Built-in kinds kube-apiserver never stores, each with what a create does instead: a review answers and keeps nothing,
 * a Binding binds a pod, a ComponentStatus is only reported. Karmada's API server keeps no such template, and its
 * detector watches only resources it can list, watch and delete (lifted.GetDeletableResources): nothing is propagated.
 */
const NOT_STORED: ReadonlyMap<string, string> = new Map([
  ['authentication.k8s.io/v1/SelfSubjectReview', 'answers a SelfSubjectReview (who the caller is) and keeps nothing'],
  ['authentication.k8s.io/v1/TokenReview', 'answers a TokenReview (whether the token authenticates) and keeps nothing'],
  [
    'authorization.k8s.io/v1/LocalSubjectAccessReview',
    'answers a LocalSubjectAccessReview (whether the access is allowed) and keeps nothing',
  ],
  [
    'authorization.k8s.io/v1/SelfSubjectAccessReview',
    'answers a SelfSubjectAccessReview (whether the access is allowed) and keeps nothing',
  ],
  [
    'authorization.k8s.io/v1/SelfSubjectRulesReview',
    'answers a SelfSubjectRulesReview (what the caller may do) and keeps nothing',
  ],
  [
    'authorization.k8s.io/v1/SubjectAccessReview',
    'answers a SubjectAccessReview (whether the access is allowed) and keeps nothing',
  ],
  ['v1/Binding', "carries out a Binding (sets the pod's spec.nodeName) and keeps nothing"],
  ['v1/ComponentStatus', 'only reports ComponentStatuses and refuses to create one'],
]);

export interface UnservedApi {
  message: string;
  fix: string;
}

/**
 * Why kube-apiserver (Karmada's API server) refuses or does not keep an object of this apiVersion and kind, or undefined
 * when it serves and stores it or the group is not a built-in one (a CRD's, checked by its CRD). Alpha versions of the kinds table count as
 * served: a cluster may enable them.
 */
export function unservedApi(apiVersion: string, kind: string): UnservedApi | undefined {
  const key = `${apiVersion}/${kind}`;
  const notStored = NOT_STORED.get(key);
  if (notStored)
    return {
      message: `kube-apiserver ${notStored}: Karmada's API server holds no ${kind} template, so nothing would be propagated`,
      fix:
        kind === 'ComponentStatus'
          ? 'remove the ComponentStatus'
          : `remove the ${kind}; to run it against a member, create it there (kubectl create -f)`,
    };
  if (KIND_TYPES[key] !== undefined || !BUILTIN_GROUPS.has(groupOf(apiVersion))) return undefined;
  const removal = REMOVED_APIS.get(key);
  if (removal) {
    const use = typeof removal.use === 'string' ? removal.use : undefined;
    const instead = typeof removal.use === 'string' ? `use ${removal.use}` : removal.use.none;
    return {
      message: `${apiVersion} ${kind} was removed in Kubernetes ${removal.removedIn}; ${instead} (Karmada's API server, a kube-apiserver, refuses ${apiVersion}: nothing would be propagated)`,
      fix: use
        ? `set apiVersion: ${use}; Kubernetes' Deprecated API Migration Guide lists the fields that changed`
        : `remove the ${kind}`,
    };
  }
  const servedAt = SERVED_AT.get(kind);
  const sameGroup = servedAt?.filter((v) => groupOf(v) === groupOf(apiVersion));
  const use = sameGroup?.[0] ?? servedAt?.[0];
  const caseless = use
    ? undefined
    : [...SERVED_AT.keys()].find(
        (k) => k.toLowerCase() === kind.toLowerCase() && SERVED_AT.get(k)!.includes(apiVersion),
      );
  return {
    message: `Kubernetes ${SERVED_RELEASE} serves no ${kind} in ${apiVersion}${use ? `; ${kind} is served as ${servedAt!.join(', ')}` : ''} (Karmada's API server, a kube-apiserver, refuses it: nothing would be propagated)`,
    fix: use
      ? `set apiVersion: ${use}`
      : caseless
        ? `write kind: ${caseless}`
        : 'use an apiVersion and kind the API server lists (kubectl api-resources)',
  };
}

/**
 * Built-in kinds kube-apiserver 1.3x serves at more than one enabled version, each → its group's preferred version.
 * Karmada's detector watches every resource at the preferred version only (pkg/util/lifted/discovery.go,
 * ServerPreferredResources), so it sees, selects and binds such an object there, whatever version it was written in.
 */
const PREFERRED: ReadonlyMap<string, string> = new Map([['autoscaling/v1/HorizontalPodAutoscaler', 'autoscaling/v2']]);

/** The apiVersion Karmada's detector sees an object of this apiVersion and kind at. */
export function preferredApiVersion(apiVersion: string, kind: string): string {
  return PREFERRED.get(`${apiVersion}/${kind}`) ?? apiVersion;
}

/**
 * The identity Karmada's detector gives an object: an autoscaling/v1 HPA on a member stands for its autoscaling/v2
 * template, whose status file, interpreters and binding targets are that template's.
 */
export function preferredRef<R extends { apiVersion: string; kind: string }>(ref: R): R {
  const apiVersion = preferredApiVersion(ref.apiVersion, ref.kind);
  return apiVersion === ref.apiVersion ? ref : { ...ref, apiVersion };
}

import { parseQuantity, quantityMilliValue } from '../quantities/parseQuantity.ts';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  configMapKeyProblems,
  duplicate,
  fieldOf,
  forbidden,
  invalid,
  isObject,
  isSet,
  keyed,
  type KubeViolation,
  labelsViolations,
  list,
  notFound,
  notSupported,
  portNameProblems,
  portNumberProblem,
  portNumOrNameViolations,
  qualifiedNameViolations,
  required,
  type Json,
} from './fieldViolations.ts';
import { ipViolations } from './ipAddresses.ts';
import { goStringSliceText } from '../text/goSyntax.ts';
import { affinityViolations, tolerationViolations, topologySpreadViolations } from './podPlacementRules.ts';
import {
  containerSecurityContextViolations,
  osViolations,
  podSecurityContextViolations,
  windowsHostProcessViolations,
} from './securityContextRules.ts';
import { claimSpecViolations } from './coreResourceRules.ts';
import { VOLUME_SOURCES } from './volumeSources.ts';

// What kube-apiserver 1.32 refuses in a pod spec (pkg/apis/core/validation ValidatePodSpec and the container,
// volume, env, probe, resource, DNS and host checks it calls; placement in podPlacementRules.ts, security settings in
// securityContextRules.ts), in its field paths and words and in its order. Pure, shared by the member emulator (its
// 422s) and `flotilla validate` (a template's pod template, refused by Karmada's API server, a kube-apiserver). The API
// server validates defaulted objects; a field these rules read that it defaults is read as its default when unset, so
// a template from Git validates as it would be stored without the cost of copying and defaulting it on every render.

type Path = (string | number)[];

const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
// validEnvDownwardAPIFieldPathExpressions, as field.NotSupported lists it (sorted).
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
// What ConvertDownwardAPIFieldLabel accepts of a v1 Pod (spec.host is read as spec.nodeName); a field path it
// accepts but an env var may not read is refused as not supported, any other as not convertible.
const POD_FIELD_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  ...ENV_FIELD_PATHS,
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
  'spec.host',
]);
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const MAX_INT32 = 2147483647;
/** IsRelaxedEnvVarName: printable ASCII other than '='. */
const RELAXED_ENV_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;
const RELAXED_ENV_MESSAGE =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";

export interface PodSpecOptions {
  /** The spec is a Pod's own (PodValidationOptions.ResourceIsPod), not a template's. Default false. */
  resourceIsPod?: boolean;
}

/** Violations of `spec` (a PodSpec) sitting at `at`, e.g. ['spec', 'template', 'spec']. */
export function podSpecViolations(spec: Json, at: Path, options: PodSpecOptions = {}): KubeViolation[] {
  const errors: KubeViolation[] = [];
  // The pod's volumes by name, for its mounts and devices to find.
  const volumes = new Map<string, Json>();
  list(spec?.volumes).forEach((volume, i) => {
    const where = [...at, 'volumes', i];
    errors.push(...nameViolations([...where, 'name'], volume?.name, dns1123LabelProblems));
    if (volume?.name && volumes.has(volume.name)) errors.push(duplicate([...where, 'name'], volume.name));
    if (volume?.name) volumes.set(volume.name, volume);
    // None is an emptyDir (SetDefaults_Volume), so "must specify a volume type" is never reached from v1.
    const sources = VOLUME_SOURCES.filter((s) => isSet(volume?.[s]));
    for (const extra of sources.slice(1))
      errors.push(forbidden([...where, extra], 'may not specify more than 1 volume type'));
    for (const source of ['secret', 'configMap']) {
      const mode = volume?.[source]?.defaultMode;
      if (isSet(mode) && !(Number.isInteger(mode) && mode >= 0 && mode <= 0o777))
        errors.push(
          invalid(
            [...where, source, 'defaultMode'],
            mode,
            'must be a number between 0 and 0777 (octal), both inclusive',
          ),
        );
    }
    if (volume?.secret && !volume.secret.secretName) errors.push(required([...where, 'secret', 'secretName']));
    // Only the first source a volume names is validated.
    if (sources[0] === 'ephemeral')
      errors.push(...ephemeralVolumeViolations(volume.ephemeral, [...where, 'ephemeral']));
  });

  // SetDefaults_PodSpec: a pod that sets none is given 30 seconds to stop, the bound of a preStop sleep.
  const gracePeriod = typeof spec?.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
  // Regular containers first, then init containers, as ValidatePodSpec reports them: a name an init container shares
  // with a regular one is the init container's duplicate.
  const containers = list(spec?.containers);
  const containersAt = [...at, 'containers'];
  if (containers.length === 0) errors.push(required(containersAt));
  const names = new Set<string>();
  containers.forEach((container, i) => {
    const where = [...containersAt, i];
    errors.push(...containerCommonViolations(container, where, volumes));
    const name = container?.name ?? '';
    if (names.has(name)) errors.push(duplicate([...where, 'name'], name));
    names.add(name);
    errors.push(...handlerFieldViolations(container, where, gracePeriod));
    if (isSet(container?.restartPolicy))
      errors.push(forbidden([...where, 'restartPolicy'], 'may not be set for non-init containers'));
  });
  // Regular containers run together, so no two may claim one host port.
  errors.push(...hostPortViolations(containers, containersAt, 0));
  list(spec?.initContainers).forEach((container, i) => {
    const where = [...at, 'initContainers', i];
    errors.push(...containerCommonViolations(container, where, volumes));
    // restartPolicy Always makes an init container a sidecar, which runs beside the regular containers.
    const policy = container?.restartPolicy;
    if (isSet(policy) && policy !== 'Always')
      errors.push(notSupported([...where, 'restartPolicy'], policy, ['Always']));
    const name = container?.name ?? '';
    if (names.has(name)) errors.push(duplicate([...where, 'name'], name));
    else if (name) names.add(name);
    // Init containers run one at a time, so each is checked alone (and kube-apiserver names it initContainers[0]).
    errors.push(...hostPortViolations([container], [...at, 'initContainers'], i));
    if (policy === 'Always') errors.push(...handlerFieldViolations(container, where, gracePeriod));
    else
      for (const handlers of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'])
        if (isSet(container?.[handlers]))
          errors.push(
            forbidden([...where, handlers], 'may not be set for init containers without restartPolicy=Always'),
          );
  });

  errors.push(...hostNetworkPortViolations(spec, at));
  if (isSet(spec?.restartPolicy) && !['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy))
    errors.push(notSupported([...at, 'restartPolicy'], spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  if (isSet(spec?.terminationGracePeriodSeconds) && spec.terminationGracePeriodSeconds < 0)
    errors.push(
      invalid(
        [...at, 'terminationGracePeriodSeconds'],
        spec.terminationGracePeriodSeconds,
        'must be greater than or equal to 0',
      ),
    );
  // SetDefaults_PodSpec: an empty DNS policy is ClusterFirst.
  const dnsPolicy = spec?.dnsPolicy || 'ClusterFirst';
  if (!DNS_POLICIES.includes(dnsPolicy)) errors.push(notSupported([...at, 'dnsPolicy'], dnsPolicy, DNS_POLICIES));
  errors.push(...labelsViolations([...at, 'nodeSelector'], spec?.nodeSelector));
  errors.push(...podSecurityContextViolations(spec, at));
  errors.push(...affinityViolations(spec?.affinity, [...at, 'affinity']));
  errors.push(...dnsConfigViolations(spec?.dnsConfig, dnsPolicy, [...at, 'dnsConfig']));
  list(spec?.readinessGates).forEach((gate, i) =>
    errors.push(
      ...qualifiedNameViolations([...at, 'readinessGates', i, 'conditionType'], String(gate?.conditionType ?? '')),
    ),
  );
  errors.push(...schedulingGateViolations(list(spec?.schedulingGates), [...at, 'schedulingGates']));
  errors.push(...topologySpreadViolations(list(spec?.topologySpreadConstraints), [...at, 'topologySpreadConstraints']));
  errors.push(...windowsHostProcessViolations(spec, at));
  for (const field of ['serviceAccountName', 'nodeName'])
    if (spec?.[field])
      for (const p of dns1123SubdomainProblems(String(spec[field])))
        errors.push(invalid([...at, field], String(spec[field]), p));
  const deadline = spec?.activeDeadlineSeconds;
  if (isSet(deadline) && !(deadline >= 1 && deadline <= MAX_INT32))
    errors.push(invalid([...at, 'activeDeadlineSeconds'], deadline, `must be between 1 and ${MAX_INT32}, inclusive`));
  for (const field of ['hostname', 'subdomain'])
    if (spec?.[field])
      for (const p of dns1123LabelProblems(String(spec[field]))) errors.push(invalid([...at, field], spec[field], p));
  errors.push(...tolerationViolations(list(spec?.tolerations), [...at, 'tolerations']));
  list(spec?.hostAliases).forEach((alias, i) => {
    const where = [...at, 'hostAliases', i];
    errors.push(...ipViolations([...where, 'ip'], alias?.ip));
    list(alias?.hostnames).forEach((hostname, j) => {
      for (const p of dns1123SubdomainProblems(String(hostname)))
        errors.push(invalid([...where, 'hostnames', j], String(hostname), p));
    });
  });
  if (spec?.priorityClassName)
    for (const p of dns1123SubdomainProblems(String(spec.priorityClassName)))
      errors.push(invalid([...at, 'priorityClassName'], String(spec.priorityClassName), p));
  if (isSet(spec?.runtimeClassName))
    for (const p of dns1123SubdomainProblems(String(spec.runtimeClassName)))
      errors.push(invalid([...at, 'runtimeClassName'], String(spec.runtimeClassName), p));
  const preemption = spec?.preemptionPolicy;
  if (preemption === '') errors.push(required([...at, 'preemptionPolicy']));
  else if (isSet(preemption) && !PREEMPTION_POLICIES.includes(preemption))
    errors.push(notSupported([...at, 'preemptionPolicy'], preemption, PREEMPTION_POLICIES));
  errors.push(...osViolations(spec, at));

  // What ValidatePodCreate adds for a Pod, and ValidatePodTemplateSpec for a template.
  const ephemeral = list(spec?.ephemeralContainers).length > 0;
  if (options.resourceIsPod) {
    for (const kind of ['containers', 'initContainers'])
      list(spec?.[kind]).forEach((container, i) => {
        const image = String(container?.image ?? '');
        if (image !== image.trim())
          errors.push(invalid([...at, kind, i, 'image'], image, 'must not have leading or trailing whitespace'));
      });
    // Ephemeral containers are added to a running pod through its ephemeralcontainers subresource.
    if (ephemeral) errors.push(forbidden([...at, 'ephemeralContainers'], 'cannot be set on create'));
    if (spec?.nodeName && list(spec?.schedulingGates).length > 0)
      errors.push(forbidden([...at, 'nodeName'], 'cannot be set until all schedulingGates have been cleared'));
  } else if (ephemeral)
    errors.push(forbidden([...at, 'ephemeralContainers'], 'ephemeral containers not allowed in pod template'));
  return errors;
}

/**
 * validatePodHostNetworkDeps: on the host network a container port is its host port. A template's unset host port
 * is filled in when its pod is created, and so is a Pod's (SetDefaults_Pod), so only a different one is refused.
 */
function hostNetworkPortViolations(spec: Json, at: Path): KubeViolation[] {
  if (spec?.hostNetwork !== true) return [];
  const errors: KubeViolation[] = [];
  list(spec.containers).forEach((container, i) => {
    list(container?.ports).forEach((port, j) => {
      if (port?.hostPort && port.hostPort !== port.containerPort)
        errors.push(
          invalid(
            [...at, 'containers', i, 'ports', j, 'hostPort'],
            port.hostPort,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
    });
  });
  return errors;
}

/**
 * validatePodDNSConfig. Kubernetes 1.32 holds each search domain, less one trailing dot, to the DNS subdomain format
 * (RelaxedDNSSearchValidation, which admits `_` and a lone `.`, is off by default until 1.33).
 */
function dnsConfigViolations(config: Json, policy: string, at: Path): KubeViolation[] {
  if (policy === 'None') {
    if (!isSet(config)) return [required(at, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(config.nameservers).length === 0)
      return [required([...at, 'nameservers'], 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isObject(config)) return [];
  const errors: KubeViolation[] = [];
  const nameservers = list(config.nameservers);
  if (nameservers.length > 3)
    errors.push(
      invalid(
        [...at, 'nameservers'],
        undefined,
        'must not have more than 3 nameservers',
        goStringSliceText(nameservers),
      ),
    );
  nameservers.forEach((nameserver, i) => errors.push(...ipViolations([...at, 'nameservers', i], nameserver)));
  const searches = list(config.searches).map(String);
  if (searches.length > 32)
    errors.push(
      invalid([...at, 'searches'], undefined, 'must not have more than 32 search paths', goStringSliceText(searches)),
    );
  if (searches.join(' ').length > 2048)
    errors.push(
      invalid(
        [...at, 'searches'],
        undefined,
        'must not have more than 2048 characters (including spaces) in the search list',
        goStringSliceText(searches),
      ),
    );
  searches.forEach((search, i) => {
    const domain = search.endsWith('.') ? search.slice(0, -1) : search;
    for (const p of dns1123SubdomainProblems(domain)) errors.push(invalid([...at, 'searches', i], domain, p));
  });
  list(config.options).forEach((option, i) => {
    if (!option?.name) errors.push(required([...at, 'options', i], 'must not be empty'));
  });
  return errors;
}

/** validateSchedulingGates: each gate's name is a qualified name, once; the API server names the gate, not its name. */
function schedulingGateViolations(gates: Json[], at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const seen = new Set<string>();
  gates.forEach((gate, i) => {
    const name = String(gate?.name ?? '');
    const where = { path: [...at, i, 'name'], field: fieldOf([...at, i]) };
    errors.push(...qualifiedNameViolations(where, name));
    if (seen.has(name)) errors.push(duplicate(where, name));
    seen.add(name);
  });
  return errors;
}

function nameViolations(path: Path, name: unknown, problems: (s: string) => string[]): KubeViolation[] {
  if (typeof name !== 'string' || name === '') return [required(path)];
  return problems(name).map((p) => invalid(path, name, p));
}

/** validateContainerCommon: what every container, regular or init, is held to. */
function containerCommonViolations(container: Json, at: Path, volumes: Map<string, Json>): KubeViolation[] {
  const errors = nameViolations([...at, 'name'], container?.name, dns1123LabelProblems);
  if (!container?.image) errors.push(required([...at, 'image']));
  // Unset or empty, each policy is defaulted (File; Always or IfNotPresent from the image's tag), so only a value
  // given is checked.
  const messagePolicy = container?.terminationMessagePolicy;
  if (messagePolicy && !TERMINATION_MESSAGE_POLICIES.includes(messagePolicy))
    errors.push(notSupported([...at, 'terminationMessagePolicy'], messagePolicy, TERMINATION_MESSAGE_POLICIES));
  const portNames = new Set<string>();
  list(container?.ports).forEach((port, i) => {
    const where = [...at, 'ports', i];
    if (isSet(port?.name)) {
      for (const p of portNameProblems(String(port.name))) errors.push(invalid([...where, 'name'], port.name, p));
      if (portNames.has(port.name)) errors.push(duplicate([...where, 'name'], port.name));
      portNames.add(port.name);
    }
    const problem = portNumberProblem(port?.containerPort);
    if (!isSet(port?.containerPort)) errors.push(required([...where, 'containerPort']));
    else if (problem) errors.push(invalid([...where, 'containerPort'], port.containerPort, problem));
    // An empty protocol is defaulted to TCP.
    if (port?.protocol && !PROTOCOLS.includes(port.protocol))
      errors.push(notSupported([...where, 'protocol'], port.protocol, PROTOCOLS));
  });
  list(container?.env).forEach((env, i) => errors.push(...envViolations(env, [...at, 'env', i])));
  errors.push(...envFromViolations(list(container?.envFrom), [...at, 'envFrom']));
  const mounts = list(container?.volumeMounts);
  const devices = list(container?.volumeDevices);
  const mountPaths = new Set<string>();
  mounts.forEach((mount, i) => {
    const where = [...at, 'volumeMounts', i];
    if (!mount?.name) errors.push(required([...where, 'name']));
    else if (!volumes.has(mount.name)) errors.push(notFound([...where, 'name'], mount.name));
    if (!mount?.mountPath) errors.push(required([...where, 'mountPath']));
    else if (mountPaths.has(mount.mountPath))
      errors.push(invalid([...where, 'mountPath'], mount.mountPath, 'must be unique'));
    if (mount?.mountPath) mountPaths.add(mount.mountPath);
    // A volume is a file system or a block device to one container, not both.
    if (devices.some((device) => (device?.name ?? '') === (mount?.name ?? '')))
      errors.push(invalid([...where, 'name'], mount?.name ?? '', 'must not already exist in volumeDevices'));
    if (devices.some((device) => (device?.devicePath ?? '') === (mount?.mountPath ?? '')))
      errors.push(
        invalid([...where, 'mountPath'], mount?.mountPath ?? '', 'must not already exist as a path in volumeDevices'),
      );
  });
  errors.push(...volumeDeviceViolations(devices, mounts, volumes, [...at, 'volumeDevices']));
  const pullPolicy = container?.imagePullPolicy;
  if (pullPolicy && !PULL_POLICIES.includes(pullPolicy))
    errors.push(notSupported([...at, 'imagePullPolicy'], pullPolicy, PULL_POLICIES));
  if (container?.resources?.requests || container?.resources?.limits)
    errors.push(...resourceViolations(container.resources, [...at, 'resources']));
  errors.push(...containerSecurityContextViolations(container?.securityContext, at));
  return errors;
}

// The ObjectMeta fields a generic ephemeral volume's claim template may not set (all but labels and annotations), as
// validateFieldAllowList names them: the Go field name with its first letter lowered.
const CLAIM_TEMPLATE_META_FORBIDDEN: [string, string][] = [
  ['name', 'name'],
  ['generateName', 'generateName'],
  ['namespace', 'namespace'],
  ['selfLink', 'selfLink'],
  ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'],
  ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'],
  ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'],
  ['finalizers', 'finalizers'],
  ['managedFields', 'managedFields'],
];

/**
 * validateEphemeralVolumeSource: a claim template is required, whose metadata holds labels and annotations alone
 * (ValidatePersistentVolumeClaimTemplate) and whose spec is a claim's (ValidatePersistentVolumeClaimSpec).
 */
function ephemeralVolumeViolations(ephemeral: Json, at: Path): KubeViolation[] {
  const template = ephemeral?.volumeClaimTemplate;
  const templateAt = [...at, 'volumeClaimTemplate'];
  if (!isObject(template)) return [required(templateAt)];
  const metadata = isObject(template.metadata) ? template.metadata : {};
  const errors = labelsViolations([...templateAt, 'metadata', 'labels'], metadata.labels);
  for (const [key, name] of CLAIM_TEMPLATE_META_FORBIDDEN) {
    const value = metadata[key];
    // A zero value (an empty string, 0, null) is unset to the API server.
    if (isSet(value) && value !== '' && value !== 0)
      errors.push(
        forbidden(
          { path: [...templateAt, 'metadata', key], field: fieldOf([...templateAt, 'metadata', name]) },
          'cannot be set for an ephemeral volume',
        ),
      );
  }
  errors.push(...claimSpecViolations(isObject(template.spec) ? template.spec : {}, [...templateAt, 'spec']));
  return errors;
}

/**
 * ValidateEnvFrom: each source names one ConfigMap or Secret. A name may end in '-' (it is checked as a name prefix,
 * its last two characters read as one letter); a prefix is an environment variable name (relaxed, as
 * RelaxedEnvironmentVariableValidation has it on by default in 1.32). A source's count is reported at envFrom itself.
 */
function envFromViolations(sources: Json[], at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  sources.forEach((source, i) => {
    const where = [...at, i];
    const prefix = String(source?.prefix ?? '');
    if (prefix && !RELAXED_ENV_NAME.test(prefix))
      errors.push(invalid([...where, 'prefix'], prefix, RELAXED_ENV_MESSAGE));
    const refs = ['configMapRef', 'secretRef'].filter((ref) => isSet(source?.[ref]));
    for (const ref of refs) {
      const name = String(source[ref].name ?? '');
      if (!name) errors.push(required([...where, ref, 'name']));
      else
        for (const p of dns1123SubdomainProblems(maskTrailingDash(name)))
          errors.push(invalid([...where, ref, 'name'], name, p));
    }
    if (refs.length === 0) errors.push(invalid(at, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (refs.length > 1) errors.push(invalid(at, '', 'may not have more than one field specified at a time'));
  });
  return errors;
}

/** apimachinery's maskTrailingDash: a generated name's prefix may end in '-'. */
const maskTrailingDash = (name: string) => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);

/**
 * ValidateVolumeDevices: a block device is a volume of a PersistentVolumeClaim (or a generic ephemeral one), once per
 * container, at a path without `..` that no mount of the container uses.
 */
function volumeDeviceViolations(
  devices: Json[],
  mounts: Json[],
  volumes: Map<string, Json>,
  at: Path,
): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const names = new Set<string>();
  const paths = new Set<string>();
  devices.forEach((device, i) => {
    const where = [...at, i];
    const name = String(device?.name ?? '');
    const path = String(device?.devicePath ?? '');
    const volume = volumes.get(name);
    if (!name) errors.push(required([...where, 'name']));
    if (names.has(name)) errors.push(invalid([...where, 'name'], name, 'must be unique'));
    if (volume && !isSet(volume.persistentVolumeClaim) && !isSet(volume.ephemeral))
      errors.push(
        invalid(
          [...where, 'name'],
          name,
          'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
        ),
      );
    if (!volume) errors.push(notFound([...where, 'name'], name));
    if (!path) errors.push(required([...where, 'devicePath']));
    if (paths.has(path)) errors.push(invalid([...where, 'devicePath'], path, 'must be unique'));
    if (path && path.split('/').includes('..'))
      errors.push(invalid([...where, 'devicePath'], path, "can not contain backsteps ('..')"));
    else paths.add(path);
    if (mounts.some((mount) => (mount?.name ?? '') === name))
      errors.push(invalid([...where, 'name'], name, 'must not already exist in volumeMounts'));
    if (mounts.some((mount) => (mount?.mountPath ?? '') === path))
      errors.push(invalid([...where, 'devicePath'], path, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errors;
}

/** The lifecycle hooks and probes of a container that may have them: a regular container or a sidecar. */
function handlerFieldViolations(container: Json, at: Path, gracePeriod: number): KubeViolation[] {
  const lifecycle = container?.lifecycle;
  const liveness = container?.livenessProbe;
  const readiness = container?.readinessProbe;
  const startup = container?.startupProbe;
  if (!isSet(lifecycle) && !isSet(liveness) && !isSet(readiness) && !isSet(startup)) return [];
  const errors: KubeViolation[] = [];
  for (const hook of ['postStart', 'preStop'])
    if (isSet(lifecycle?.[hook]))
      errors.push(...handlerViolations(lifecycle[hook], [...at, 'lifecycle', hook], LIFECYCLE_HANDLERS, gracePeriod));
  if (isSet(liveness)) errors.push(...probeViolations(liveness, [...at, 'livenessProbe'], 'liveness', gracePeriod));
  if (isSet(readiness)) errors.push(...probeViolations(readiness, [...at, 'readinessProbe'], 'readiness', gracePeriod));
  if (isSet(startup)) errors.push(...probeViolations(startup, [...at, 'startupProbe'], 'startup', gracePeriod));
  return errors;
}

/**
 * AccumulateUniqueHostPorts over `containers`, the first of which is `first` of the list at `at`: each non-zero
 * host port once per protocol and host IP. kube-apiserver numbers the containers from `at`'s first (so an init
 * container, checked alone, is named initContainers[0]); the violation is located at the container's own index.
 */
function hostPortViolations(containers: Json[], at: Path, first: number): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const seen = new Set<string>();
  containers.forEach((container, c) => {
    list(container?.ports).forEach((port, p) => {
      if (!port?.hostPort) return;
      const key = `${port.protocol || 'TCP'}/${port.hostIP ?? ''}/${port.hostPort}`;
      if (!seen.has(key)) return void seen.add(key);
      const path = [...at, first + c, 'ports', p, 'hostPort'];
      errors.push(duplicate({ path, field: fieldOf([...at, c, 'ports', p, 'hostPort']) }, key));
    });
  });
  return errors;
}

/**
 * ValidateEnv's checks of one variable: its name, then each valueFrom source in turn (validateEnvVarValueFrom), then
 * one word on their count: none, one beside a `value`, or more than one.
 */
function envViolations(env: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  // RelaxedEnvironmentVariableValidation (on by default since 1.32): printable ASCII other than '='.
  if (!env?.name) errors.push(required([...at, 'name']));
  else if (!RELAXED_ENV_NAME.test(env.name)) errors.push(invalid([...at, 'name'], env.name, RELAXED_ENV_MESSAGE));
  if (!isSet(env?.valueFrom)) return errors;
  const from = env.valueFrom;
  const fromAt = [...at, 'valueFrom'];
  if (isSet(from.fieldRef)) errors.push(...fieldRefViolations(from.fieldRef, [...fromAt, 'fieldRef']));
  for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
    if (!isSet(from[ref])) continue;
    // The name is checked as a Secret's name even when empty, so an empty one reads as not a subdomain.
    const name = String(from[ref].name ?? '');
    for (const p of dns1123SubdomainProblems(name)) errors.push(invalid([...fromAt, ref, 'name'], name, p));
    const key = String(from[ref].key ?? '');
    if (!key) errors.push(required([...fromAt, ref, 'key']));
    else for (const p of configMapKeyProblems(key)) errors.push(invalid([...fromAt, ref, 'key'], key, p));
  }
  const sources = ENV_SOURCES.filter((s) => isSet(from[s])).length;
  if (sources === 0)
    errors.push(
      invalid(fromAt, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'),
    );
  else if (env.value) errors.push(invalid(fromAt, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errors.push(invalid(fromAt, '', 'may not have more than one field specified at a time'));
  return errors;
}

/**
 * validateObjectFieldSelector for an env var, its apiVersion defaulted to v1: the path must convert as a Pod's field
 * label (ConvertDownwardAPIFieldLabel), a subscript must name a label or annotation key, and an unsubscripted path
 * must be one an env var may read.
 */
function fieldRefViolations(ref: Json, at: Path): KubeViolation[] {
  const apiVersion = ref.apiVersion || 'v1';
  const fieldPath = String(ref.fieldPath ?? '');
  if (!fieldPath) return [required([...at, 'fieldPath'])];
  const subscripted = splitSubscriptedPath(fieldPath);
  let problem: string | undefined;
  if (apiVersion !== 'v1') problem = `unsupported pod version: ${apiVersion}`;
  else if (subscripted && !['metadata.annotations', 'metadata.labels'].includes(subscripted.path))
    problem = `field label does not support subscript: ${fieldPath}`;
  else if (!subscripted && !POD_FIELD_LABELS.has(fieldPath)) problem = `field label not supported: ${fieldPath}`;
  if (problem) return [invalid([...at, 'fieldPath'], fieldPath, `error converting fieldPath: ${problem}`)];
  if (subscripted) {
    const { path, subscript } = subscripted;
    return qualifiedNameViolations(at, path === 'metadata.annotations' ? subscript.toLowerCase() : subscript);
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return ENV_FIELD_PATHS.includes(internal) ? [] : [notSupported([...at, 'fieldPath'], internal, ENV_FIELD_PATHS)];
}

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` as its path and key. */
function splitSubscriptedPath(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const inner = fieldPath.slice(0, -2);
  const open = inner.indexOf("['");
  if (open <= 0) return undefined;
  return { path: inner.slice(0, open), subscript: inner.slice(open + 2) };
}

function probeViolations(
  probe: Json,
  at: Path,
  kind: 'liveness' | 'readiness' | 'startup',
  gracePeriod: number,
): KubeViolation[] {
  const errors = handlerViolations(probe, at, PROBE_HANDLERS, gracePeriod);
  for (const field of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    if (isSet(probe?.[field]) && probe[field] < 0)
      errors.push(invalid([...at, field], probe[field], 'must be greater than or equal to 0'));
  }
  const probeGracePeriod = probe?.terminationGracePeriodSeconds;
  if (isSet(probeGracePeriod) && probeGracePeriod <= 0)
    errors.push(invalid([...at, 'terminationGracePeriodSeconds'], probeGracePeriod, 'must be greater than 0'));
  if (kind === 'readiness' && isSet(probeGracePeriod))
    errors.push(
      invalid([...at, 'terminationGracePeriodSeconds'], probeGracePeriod, 'must not be set for readinessProbes'),
    );
  // An unset or 0 successThreshold is defaulted to 1.
  if (
    kind !== 'readiness' &&
    isSet(probe?.successThreshold) &&
    probe.successThreshold !== 0 &&
    probe.successThreshold !== 1
  )
    errors.push(invalid([...at, 'successThreshold'], probe.successThreshold, 'must be 1'));
  return errors;
}

/**
 * validateHandler: a probe's or lifecycle hook's one action. A second action is forbidden and not itself checked. An
 * httpGet's empty path and scheme are defaulted (/ and HTTP), so only a scheme given is checked.
 */
function handlerViolations(handler: Json, at: Path, kinds: readonly string[], gracePeriod: number): KubeViolation[] {
  const errors: KubeViolation[] = [];
  let found = false;
  for (const kind of kinds) {
    const action = handler?.[kind];
    if (!isSet(action)) continue;
    const where = [...at, kind];
    if (found) {
      errors.push(forbidden(where, 'may not specify more than 1 handler type'));
      continue;
    }
    found = true;
    if (kind === 'exec' && list(action.command).length === 0) errors.push(required([...where, 'command']));
    if (kind === 'httpGet') {
      errors.push(...portNumOrNameViolations([...where, 'port'], action.port));
      if (action.scheme && !HTTP_SCHEMES.includes(action.scheme))
        errors.push(notSupported([...where, 'scheme'], action.scheme, HTTP_SCHEMES));
      list(action.httpHeaders).forEach((header, i) => {
        const name = String(header?.name ?? '');
        if (!HTTP_HEADER_NAME.test(name))
          errors.push(
            invalid(
              { path: [...where, 'httpHeaders', i, 'name'], field: fieldOf([...where, 'httpHeaders']) },
              name,
              "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
            ),
          );
      });
    }
    if (kind === 'tcpSocket') errors.push(...portNumOrNameViolations([...where, 'port'], action.port));
    if (kind === 'grpc') errors.push(...portNumOrNameViolations([...where, 'port'], action.port ?? 0));
    if (kind === 'sleep') {
      const seconds = action.seconds ?? 0;
      if (!(seconds > 0 && seconds <= gracePeriod))
        errors.push(
          invalid(
            where,
            seconds,
            `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod})`,
          ),
        );
    }
  }
  if (!found) errors.push(required(at, 'must specify a handler type'));
  return errors;
}

/**
 * A quantity's milli value, remembered by its text: a fleet's containers repeat a handful of values ("100m", "128Mi"),
 * and parsing each into BigInts was most of a Deployment's validation. Bounded: emptied when it grows past the cap.
 */
const milliByText = new Map<string, bigint | undefined>();
const MILLI_CACHE_MAX = 4096;

function milliValue(value: unknown): bigint | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const key = typeof value === 'number' ? `#${value}` : value;
  if (milliByText.has(key)) return milliByText.get(key);
  const q = parseQuantity(value);
  const milli = q ? quantityMilliValue(q) : undefined;
  if (milliByText.size >= MILLI_CACHE_MAX) milliByText.clear();
  milliByText.set(key, milli);
  return milli;
}

function resourceViolations(resources: Json, at: Path): KubeViolation[] {
  const requests = resources?.requests;
  const limits = resources?.limits;
  if (!requests && !limits) return [];
  const errors: KubeViolation[] = [];
  const limitValues: Record<string, bigint | undefined> = {};
  for (const kind of ['requests', 'limits'] as const) {
    for (const name in resources[kind] ?? {}) {
      const value = resources[kind][name];
      const milli = milliValue(value);
      if (kind === 'limits') limitValues[name] = milli;
      if (milli === undefined)
        errors.push(
          invalid(
            keyed([...at, kind], name),
            value,
            'must match the regex ^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$',
          ),
        );
      else if (milli < 0n)
        errors.push(invalid(keyed([...at, kind], name), value, 'must be greater than or equal to 0'));
    }
  }
  // Checked first, as ValidateResourceRequirements compares each request before reading the quantities alone.
  const comparisons: KubeViolation[] = [];
  for (const name in requests ?? {}) {
    if (limitValues[name] === undefined) continue;
    const request = milliValue(requests[name]);
    if (request !== undefined && request > (limitValues[name] as bigint))
      comparisons.push(
        invalid(
          [...at, 'requests'],
          String(requests[name]),
          `must be less than or equal to ${name} limit of ${limits[name]}`,
        ),
      );
  }
  return [...comparisons, ...errors];
}

import { parseQuantity, quantityMilliValue } from '../quantities/parseQuantity.ts';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  fieldOf,
  forbidden,
  invalid,
  isSet,
  keyed,
  type KubeViolation,
  list,
  notFound,
  notSupported,
  portNameProblems,
  portNumberProblem,
  portNumOrNameViolations,
  required,
} from './fieldViolations.ts';
import { VOLUME_SOURCES } from './volumeSources.ts';

// What kube-apiserver 1.32 refuses in a pod spec (pkg/apis/core/validation ValidatePodSpec and the container,
// volume, env, probe, resource and topology-spread checks it calls), in its field paths and words. Pure, shared by
// the member emulator (its 422s) and `flotilla validate` (a template's pod template, refused by Karmada's API
// server, a kube-apiserver). The API server validates defaulted objects; a field these rules
// read that it defaults is read as its default when unset, so a template from Git validates as it would be stored
// without the cost of copying and defaulting it on every render.

// biome-ignore lint/suspicious/noExplicitAny: an API object of any shape, as the API server decodes it; each rule reads the fields it checks
type Json = any;
type Path = (string | number)[];

const ENV_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'];
const ENV_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
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
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];

/** Violations of `spec` (a PodSpec) sitting at `at`, e.g. ['spec', 'template', 'spec']. */
export function podSpecViolations(spec: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const volumes = new Set<string>();
  list(spec?.volumes).forEach((volume, i) => {
    const where = [...at, 'volumes', i];
    errors.push(...nameViolations([...where, 'name'], volume?.name, dns1123LabelProblems));
    if (volume?.name && volumes.has(volume.name)) errors.push(duplicate([...where, 'name'], volume.name));
    if (volume?.name) volumes.add(volume.name);
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
  if (spec?.serviceAccountName)
    for (const p of dns1123SubdomainProblems(spec.serviceAccountName))
      errors.push(invalid([...at, 'serviceAccountName'], spec.serviceAccountName, p));
  errors.push(
    ...seccompViolations(spec?.securityContext?.seccompProfile, [...at, 'securityContext', 'seccompProfile']),
  );
  errors.push(...topologySpreadViolations(list(spec?.topologySpreadConstraints), [...at, 'topologySpreadConstraints']));
  return errors;
}

function nameViolations(path: Path, name: unknown, problems: (s: string) => string[]): KubeViolation[] {
  if (typeof name !== 'string' || name === '') return [required(path)];
  return problems(name).map((p) => invalid(path, name, p));
}

/** validateContainerCommon: what every container, regular or init, is held to. */
function containerCommonViolations(container: Json, at: Path, volumes: Set<string>): KubeViolation[] {
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
  const mountPaths = new Set<string>();
  list(container?.volumeMounts).forEach((mount, i) => {
    const where = [...at, 'volumeMounts', i];
    if (!mount?.name) errors.push(required([...where, 'name']));
    else if (!volumes.has(mount.name)) errors.push(notFound([...where, 'name'], mount.name));
    if (!mount?.mountPath) errors.push(required([...where, 'mountPath']));
    else if (mountPaths.has(mount.mountPath))
      errors.push(invalid([...where, 'mountPath'], mount.mountPath, 'must be unique'));
    if (mount?.mountPath) mountPaths.add(mount.mountPath);
  });
  const pullPolicy = container?.imagePullPolicy;
  if (pullPolicy && !PULL_POLICIES.includes(pullPolicy))
    errors.push(notSupported([...at, 'imagePullPolicy'], pullPolicy, PULL_POLICIES));
  if (container?.resources?.requests || container?.resources?.limits)
    errors.push(...resourceViolations(container.resources, [...at, 'resources']));
  if (isSet(container?.securityContext?.seccompProfile))
    errors.push(
      ...seccompViolations(container.securityContext.seccompProfile, [...at, 'securityContext', 'seccompProfile']),
    );
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

function envViolations(env: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  // RelaxedEnvironmentVariableValidation (on by default since 1.32): printable ASCII other than '='.
  if (!env?.name) errors.push(required([...at, 'name']));
  else if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(env.name))
    errors.push(
      invalid(
        [...at, 'name'],
        env.name,
        "a valid environment variable name must consist only of printable ASCII characters other than '='",
      ),
    );
  if (!isSet(env?.valueFrom)) return errors;
  const from = env.valueFrom;
  const sources = ENV_SOURCES.filter((s) => isSet(from[s]));
  if (env.value) errors.push(invalid([...at, 'valueFrom'], '', 'may not be specified when `value` is not empty'));
  if (sources.length === 0)
    errors.push(
      invalid(
        [...at, 'valueFrom'],
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  if (sources.length > 1)
    errors.push(invalid([...at, 'valueFrom'], '', 'may not have more than one field specified at a time'));
  const fieldPath = from.fieldRef?.fieldPath;
  if (isSet(from.fieldRef)) {
    if (!fieldPath) errors.push(required([...at, 'valueFrom', 'fieldRef', 'fieldPath']));
    else {
      const base = String(fieldPath).replace(/\[.*\]$/, '');
      if (!ENV_FIELD_PATHS.includes(base))
        errors.push(notSupported([...at, 'valueFrom', 'fieldRef', 'fieldPath'], fieldPath, ENV_FIELD_PATHS));
    }
  }
  for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
    if (!isSet(from[ref])) continue;
    if (!from[ref].name) errors.push(required([...at, 'valueFrom', ref, 'name']));
    if (!from[ref].key) errors.push(required([...at, 'valueFrom', ref, 'key']));
  }
  return errors;
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

function seccompViolations(profile: Json, at: Path): KubeViolation[] {
  if (!isSet(profile)) return [];
  if (!SECCOMP_TYPES.includes(profile.type)) return [notSupported([...at, 'type'], profile.type ?? '', SECCOMP_TYPES)];
  if (profile.type === 'Localhost' && !profile.localhostProfile)
    return [required([...at, 'localhostProfile'], 'must be set when seccomp type is Localhost')];
  if (profile.type !== 'Localhost' && profile.localhostProfile)
    return [
      invalid([...at, 'localhostProfile'], profile.localhostProfile, 'can only be set when seccomp type is Localhost'),
    ];
  return [];
}

function topologySpreadViolations(constraints: Json[], at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const seen = new Set<string>();
  constraints.forEach((c, i) => {
    const where = [...at, i];
    if (!(Number.isInteger(c?.maxSkew) && c.maxSkew > 0))
      errors.push(invalid([...where, 'maxSkew'], c?.maxSkew ?? 0, 'must be greater than zero'));
    if (!c?.topologyKey) errors.push(required([...where, 'topologyKey'], 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(c?.whenUnsatisfiable))
      errors.push(notSupported([...where, 'whenUnsatisfiable'], c?.whenUnsatisfiable ?? '', WHEN_UNSATISFIABLE));
    const pair = `{${c?.topologyKey}, ${c?.whenUnsatisfiable}}`;
    if (seen.has(pair)) errors.push(duplicate(where, pair));
    seen.add(pair);
    if (isSet(c?.minDomains) && !(Number.isInteger(c.minDomains) && c.minDomains > 0))
      errors.push(invalid([...where, 'minDomains'], c.minDomains, 'must be greater than 0'));
    if (isSet(c?.minDomains) && c?.whenUnsatisfiable !== 'DoNotSchedule')
      errors.push(
        invalid(
          [...where, 'minDomains'],
          c.minDomains,
          'can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
        ),
      );
    const selected = new Set(Object.keys(c?.labelSelector?.matchLabels ?? {}));
    list(c?.matchLabelKeys).forEach((key, k) => {
      if (selected.has(key))
        errors.push(invalid([...where, 'matchLabelKeys', k], key, 'exists in both matchLabelKeys and labelSelector'));
    });
    if (list(c?.matchLabelKeys).length > 0 && !isSet(c?.labelSelector))
      errors.push(forbidden([...where, 'matchLabelKeys'], 'must not be specified when labelSelector is not set'));
  });
  return errors;
}

import { VOLUME_SOURCES } from './volumeSources.ts';
import type { FieldError } from '../ApiError.ts';
import { parseQuantity, quantityMilliValue } from '../../quantities/parseQuantity.ts';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  forbidden,
  intOrNamePortErrors,
  invalidValue,
  notFound,
  notSupported,
  portNameProblems,
  portNumberProblem,
  required,
} from './fieldErrors.ts';

// The API server's checks of a pod template's spec (pkg/apis/core/validation ValidatePodSpec and the container,
// volume, env, probe, resource and topology-spread checks it calls), for the fields a workload manifest usually
// sets. Run on defaulted objects (restartPolicy, protocols and probe thresholds are already filled in).

type Json = any;

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
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];

const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);
const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/** Errors of `spec` (a PodSpec) at `at`, e.g. `spec.template.spec`. */
export function validatePodSpec(spec: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const volumes = new Set<string>();
  list(spec?.volumes).forEach((volume, i) => {
    const where = `${at}.volumes[${i}]`;
    errors.push(...nameErrors(`${where}.name`, volume?.name, dns1123LabelProblems));
    if (volume?.name && volumes.has(volume.name)) errors.push(duplicate(`${where}.name`, volume.name));
    if (volume?.name) volumes.add(volume.name);
    const sources = VOLUME_SOURCES.filter((s) => isSet(volume?.[s]));
    if (sources.length === 0) errors.push(required(where, 'must specify a volume type'));
    for (const extra of sources.slice(1))
      errors.push(forbidden(`${where}.${extra}`, 'may not specify more than 1 volume type'));
    for (const source of ['secret', 'configMap']) {
      const mode = volume?.[source]?.defaultMode;
      if (isSet(mode) && !(Number.isInteger(mode) && mode >= 0 && mode <= 0o777))
        errors.push(
          invalidValue(
            `${where}.${source}.defaultMode`,
            mode,
            'must be a number between 0 and 0777 (octal), both inclusive',
          ),
        );
    }
    if (volume?.secret && !volume.secret.secretName) errors.push(required(`${where}.secret.secretName`));
  });

  const containers = list(spec?.containers);
  if (containers.length === 0) errors.push(required(`${at}.containers`));
  const names = new Set<string>();
  for (const [kind, group] of [
    ['initContainers', list(spec?.initContainers)],
    ['containers', containers],
  ] as const) {
    group.forEach((container, i) => {
      const where = `${at}.${kind}[${i}]`;
      errors.push(...nameErrors(`${where}.name`, container?.name, dns1123LabelProblems));
      if (container?.name && names.has(container.name)) errors.push(duplicate(`${where}.name`, container.name));
      if (container?.name) names.add(container.name);
      errors.push(...containerErrors(container, where, volumes, kind === 'containers'));
    });
  }

  if (isSet(spec?.restartPolicy) && !['Always', 'OnFailure', 'Never'].includes(spec.restartPolicy))
    errors.push(notSupported(`${at}.restartPolicy`, spec.restartPolicy, ['Always', 'OnFailure', 'Never']));
  if (isSet(spec?.terminationGracePeriodSeconds) && spec.terminationGracePeriodSeconds < 0)
    errors.push(
      invalidValue(
        `${at}.terminationGracePeriodSeconds`,
        spec.terminationGracePeriodSeconds,
        'must be greater than or equal to 0',
      ),
    );
  if (spec?.serviceAccountName)
    for (const p of dns1123SubdomainProblems(spec.serviceAccountName))
      errors.push(invalidValue(`${at}.serviceAccountName`, spec.serviceAccountName, p));
  errors.push(...seccompErrors(spec?.securityContext?.seccompProfile, `${at}.securityContext.seccompProfile`));
  errors.push(...topologySpreadErrors(list(spec?.topologySpreadConstraints), `${at}.topologySpreadConstraints`));
  return errors;
}

function nameErrors(field: string, name: unknown, problems: (s: string) => string[]): FieldError[] {
  if (typeof name !== 'string' || name === '') return [required(field)];
  return problems(name).map((p) => invalidValue(field, name, p));
}

function containerErrors(container: Json, at: string, volumes: Set<string>, regular: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (!container?.image) errors.push(required(`${at}.image`));
  const portNames = new Set<string>();
  list(container?.ports).forEach((port, i) => {
    const where = `${at}.ports[${i}]`;
    if (isSet(port?.name)) {
      for (const p of portNameProblems(String(port.name))) errors.push(invalidValue(`${where}.name`, port.name, p));
      if (portNames.has(port.name)) errors.push(duplicate(`${where}.name`, port.name));
      portNames.add(port.name);
    }
    const problem = portNumberProblem(port?.containerPort);
    if (!isSet(port?.containerPort)) errors.push(required(`${where}.containerPort`));
    else if (problem) errors.push(invalidValue(`${where}.containerPort`, port.containerPort, problem));
    if (isSet(port?.protocol) && !PROTOCOLS.includes(port.protocol))
      errors.push(notSupported(`${where}.protocol`, port.protocol, PROTOCOLS));
  });
  list(container?.env).forEach((env, i) => errors.push(...envErrors(env, `${at}.env[${i}]`)));
  const mountPaths = new Set<string>();
  list(container?.volumeMounts).forEach((mount, i) => {
    const where = `${at}.volumeMounts[${i}]`;
    if (!mount?.name) errors.push(required(`${where}.name`));
    else if (!volumes.has(mount.name)) errors.push(notFound(`${where}.name`, mount.name));
    if (!mount?.mountPath) errors.push(required(`${where}.mountPath`));
    else if (mountPaths.has(mount.mountPath))
      errors.push(invalidValue(`${where}.mountPath`, mount.mountPath, 'must be unique'));
    if (mount?.mountPath) mountPaths.add(mount.mountPath);
  });
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (!isSet(container?.[probe])) continue;
    // Init containers take probes only as sidecars (restartPolicy Always); anything else is forbidden there.
    if (!regular && container.restartPolicy !== 'Always') {
      errors.push(forbidden(`${at}.${probe}`, 'may not be set for init containers without restartPolicy=Always'));
      continue;
    }
    errors.push(...probeErrors(container[probe], `${at}.${probe}`, probe !== 'readinessProbe'));
  }
  errors.push(...resourceErrors(container?.resources, `${at}.resources`));
  errors.push(...seccompErrors(container?.securityContext?.seccompProfile, `${at}.securityContext.seccompProfile`));
  return errors;
}

function envErrors(env: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  // RelaxedEnvironmentVariableValidation (on by default since 1.32): printable ASCII other than '='.
  if (!env?.name) errors.push(required(`${at}.name`));
  else if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(env.name))
    errors.push(
      invalidValue(
        `${at}.name`,
        env.name,
        "a valid environment variable name must consist only of printable ASCII characters other than '='",
      ),
    );
  if (!isSet(env?.valueFrom)) return errors;
  const from = env.valueFrom;
  const sources = ENV_SOURCES.filter((s) => isSet(from[s]));
  if (env.value) errors.push(invalidValue(`${at}.valueFrom`, '', 'may not be specified when `value` is not empty'));
  if (sources.length === 0)
    errors.push(
      invalidValue(
        `${at}.valueFrom`,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  if (sources.length > 1)
    errors.push(invalidValue(`${at}.valueFrom`, '', 'may not have more than one field specified at a time'));
  const fieldPath = from.fieldRef?.fieldPath;
  if (isSet(from.fieldRef)) {
    if (!fieldPath) errors.push(required(`${at}.valueFrom.fieldRef.fieldPath`));
    else {
      const base = String(fieldPath).replace(/\[.*\]$/, '');
      if (!ENV_FIELD_PATHS.includes(base))
        errors.push(notSupported(`${at}.valueFrom.fieldRef.fieldPath`, fieldPath, ENV_FIELD_PATHS));
    }
  }
  for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
    if (!isSet(from[ref])) continue;
    if (!from[ref].name) errors.push(required(`${at}.valueFrom.${ref}.name`));
    if (!from[ref].key) errors.push(required(`${at}.valueFrom.${ref}.key`));
  }
  return errors;
}

function probeErrors(probe: Json, at: string, singleSuccess: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const handlers = PROBE_HANDLERS.filter((h) => isSet(probe?.[h]));
  if (handlers.length === 0) errors.push(required(at, 'must specify a handler type'));
  for (const extra of handlers.slice(1))
    errors.push(forbidden(`${at}.${extra}`, 'may not specify more than 1 handler type'));
  if (isSet(probe?.httpGet)) errors.push(...intOrNamePortErrors(`${at}.httpGet.port`, probe.httpGet.port));
  if (isSet(probe?.tcpSocket)) errors.push(...intOrNamePortErrors(`${at}.tcpSocket.port`, probe.tcpSocket.port));
  for (const field of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    if (isSet(probe?.[field]) && probe[field] < 0)
      errors.push(invalidValue(`${at}.${field}`, probe[field], 'must be greater than or equal to 0'));
  }
  if (singleSuccess && isSet(probe?.successThreshold) && probe.successThreshold !== 1)
    errors.push(invalidValue(`${at}.successThreshold`, probe.successThreshold, 'must be 1'));
  return errors;
}

function resourceErrors(resources: Json, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const limits = resources?.limits ?? {};
  for (const [name, value] of Object.entries(resources?.requests ?? {})) {
    const request = parseQuantity(value as string);
    const limit = isSet(limits[name]) ? parseQuantity(limits[name]) : undefined;
    if (request && limit && quantityMilliValue(request) > quantityMilliValue(limit))
      errors.push(
        invalidValue(`${at}.requests`, String(value), `must be less than or equal to ${name} limit of ${limits[name]}`),
      );
  }
  for (const [kind, entries] of [
    ['requests', resources?.requests],
    ['limits', resources?.limits],
  ] as const) {
    for (const [name, value] of Object.entries(entries ?? {})) {
      const q = parseQuantity(value as string);
      if (!q)
        errors.push(
          invalidValue(
            `${at}.${kind}[${name}]`,
            value,
            'must match the regex ^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$',
          ),
        );
      else if (quantityMilliValue(q) < 0n)
        errors.push(invalidValue(`${at}.${kind}[${name}]`, value, 'must be greater than or equal to 0'));
    }
  }
  return errors;
}

function seccompErrors(profile: Json, at: string): FieldError[] {
  if (!isSet(profile)) return [];
  if (!SECCOMP_TYPES.includes(profile.type)) return [notSupported(`${at}.type`, profile.type ?? '', SECCOMP_TYPES)];
  if (profile.type === 'Localhost' && !profile.localhostProfile)
    return [required(`${at}.localhostProfile`, 'must be set when seccomp type is Localhost')];
  if (profile.type !== 'Localhost' && profile.localhostProfile)
    return [
      invalidValue(
        `${at}.localhostProfile`,
        profile.localhostProfile,
        'can only be set when seccomp type is Localhost',
      ),
    ];
  return [];
}

function topologySpreadErrors(constraints: Json[], at: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  constraints.forEach((c, i) => {
    const where = `${at}[${i}]`;
    if (!(Number.isInteger(c?.maxSkew) && c.maxSkew > 0))
      errors.push(invalidValue(`${where}.maxSkew`, c?.maxSkew ?? 0, 'must be greater than zero'));
    if (!c?.topologyKey) errors.push(required(`${where}.topologyKey`, 'can not be empty'));
    if (!WHEN_UNSATISFIABLE.includes(c?.whenUnsatisfiable))
      errors.push(notSupported(`${where}.whenUnsatisfiable`, c?.whenUnsatisfiable ?? '', WHEN_UNSATISFIABLE));
    const pair = `{${c?.topologyKey}, ${c?.whenUnsatisfiable}}`;
    if (seen.has(pair)) errors.push(duplicate(`${where}`, pair));
    seen.add(pair);
    if (isSet(c?.minDomains) && !(Number.isInteger(c.minDomains) && c.minDomains > 0))
      errors.push(invalidValue(`${where}.minDomains`, c.minDomains, 'must be greater than 0'));
    if (isSet(c?.minDomains) && c?.whenUnsatisfiable !== 'DoNotSchedule')
      errors.push(
        invalidValue(
          `${where}.minDomains`,
          c.minDomains,
          'can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
        ),
      );
    const selected = new Set(Object.keys(c?.labelSelector?.matchLabels ?? {}));
    list(c?.matchLabelKeys).forEach((key, k) => {
      if (selected.has(key))
        errors.push(
          invalidValue(`${where}.matchLabelKeys[${k}]`, key, 'exists in both matchLabelKeys and labelSelector'),
        );
    });
    if (list(c?.matchLabelKeys).length > 0 && !isSet(c?.labelSelector))
      errors.push(forbidden(`${where}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
  });
  return errors;
}
